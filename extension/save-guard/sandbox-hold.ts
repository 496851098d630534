import { freezeSandboxed, type Frozen } from "../../shared/node/sandbox/freeze";

/** The longest the sandboxed processes are held for one save whose end VS Code never reports (it failed). */
const SAVE_HOLD_MS = 3_000;

/**
 * The one hold of the window's sandboxed processes while any save or write by name is under way
 * (shared/node/sandbox/freeze.ts): taken by the first holder, given back when the last one lets go.
 * A save holds until VS Code reports its end, or SAVE_HOLD_MS.
 */
export class SandboxHold {
  private frozen: Promise<Frozen> | undefined;
  private readonly holders = new Set<string>();
  private readonly saveTimers = new Map<string, NodeJS.Timeout>();

  /** `hostScript`: the bundled host's script, whose processes start a sandbox for each command: held whole, so that none starts one meanwhile. */
  constructor(private readonly hostScript: string) {}

  /** Holds for `key` until it is released; resolves once the processes are held (or found not to be). */
  take(key: string): Promise<Frozen> {
    this.frozen ??= freezeSandboxed({ starter: (argv) => argv.includes(this.hostScript) });
    this.holders.add(key);
    return this.frozen;
  }

  /** A save begins under `key` (its hold taken by `take`): released at saveEnded, or after SAVE_HOLD_MS. */
  saveBegins(key: string): void {
    clearTimeout(this.saveTimers.get(key));
    this.saveTimers.set(key, setTimeout(() => this.saveEnded(key), SAVE_HOLD_MS));
  }

  /** The save under `key` ended: its hold released. False when no save began under it (a save that ran no participants). */
  saveEnded(key: string): boolean {
    const timer = this.saveTimers.get(key);
    if (!timer) return false;
    clearTimeout(timer);
    this.saveTimers.delete(key);
    this.release(key);
    return true;
  }

  release(key: string): void {
    if (!this.holders.delete(key) || this.holders.size > 0) return;
    this.thaw();
  }

  dispose(): void {
    for (const timer of this.saveTimers.values()) clearTimeout(timer);
    this.saveTimers.clear();
    this.holders.clear();
    this.thaw();
  }

  private thaw(): void {
    const frozen = this.frozen;
    this.frozen = undefined;
    void frozen?.then((held) => held.thaw());
  }
}

/**
 * Protected names at any depth for one sandbox (one host): at each command's start the scan whose
 * finds bwrap mounts read-only (protected-scan.ts, with a cache kept across commands); while
 * commands run the watch (protected-watch.ts) that triggers their sweeps; when each ends its sweep
 * (quarantine.ts), told to the model (the tool result) and to the user (`onQuarantine`).
 */
import { dirname } from "node:path";
import { identify, ScanCache, scanProtected, type ProtectedScan, type ScanLimits } from "./protected-scan";
import { ProtectedWatch } from "./protected-watch";
import { describeSweep, sweep } from "./quarantine";
import { isStub } from "./stubs";

export interface NestedGuardOptions {
  quarantineDir: string;
  /** Told each time something was moved aside (a notice to the user). */
  onQuarantine?(message: string): void;
  /** Whether to sweep after commands (false: the scan at the start only). */
  sweepAfter: boolean;
  scanLimits?: ScanLimits;
  /** Symlinks besides the protected names that a command must not replace (the sweep puts them back): `~/.config -> dotfiles/config` where home is in a root. */
  links?(): readonly string[];
}

/** One command's part: what it found at its start, its sweep, its end. */
export interface GuardedCommand {
  found: ProtectedScan;
  /** Call with the stubs bwrap will make (the sandbox's own, never the command's), before it runs. */
  track(stubs: readonly string[]): void;
  /** Sweeps now; everything moved aside since the last call that the model was not told (the tool result). */
  sweep(): string | undefined;
  /** Nothing it started is left: a last sweep (the user is told). */
  release(): void;
}

const WATCH_LINGER_MS = 30_000;

export class NestedGuard {
  private readonly cache = new ScanCache();
  /** What sweeps moved aside (quarantine.ts): found again, the user put it back. */
  private readonly movedAway = new Set<string>();
  private toldIncomplete = false;
  /**
   * The commands still running (or their background jobs): each one's sweep, run when the watch
   * sees a protected name appear, and how to tell it what any of them moved aside (which of the
   * commands running made it cannot be known; each model turn that ran one is told).
   */
  private readonly live = new Map<() => string | undefined, (message: string) => void>();
  private watch: ProtectedWatch | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private unwatchTimer: NodeJS.Timeout | undefined;

  constructor(
    /** The writable roots now (none in read-only mode). */
    private readonly roots: () => string[],
    private readonly options: NestedGuardOptions,
  ) {}

  private scan(stubs: readonly string[]): ProtectedScan {
    const roots = this.roots();
    // Skipped: the stubs at the top of a root, which every sandbox here mounts (as missing). Another
    // process's stub deeper down (a second host over a subfolder: its empty `sub/.git`) is found,
    // so that this sandbox mounts it read-only too: a job could otherwise fill it into a repository.
    const skip = (path: string) => stubs.includes(path) || (roots.includes(dirname(path)) && isStub(path));
    const found = scanProtected(roots, skip, this.options.scanLimits, this.cache);
    for (const path of this.options.links?.() ?? []) {
      const link = identify(path);
      if (link?.kind === "symlink" && !found.entries.some((entry) => entry.path === path)) found.entries.push(link);
    }
    if (!found.complete && !this.toldIncomplete) {
      this.toldIncomplete = true;
      this.options.onQuarantine?.(`The workspace is too big to look through whole for nested protected paths (stopped after ${found.dirs} folders): a nested .git, .vscode, … beyond that is not kept read-only by the sandbox.`);
    }
    return found;
  }

  /** At a command's start (before bwrap's arguments are built: they mount what is found). */
  begin(): GuardedCommand {
    const before = this.scan([]);
    let stubs: readonly string[] = [];
    let released = false;
    let untold: string[] = [];
    let toldCut = false;
    let unwatch = () => undefined as void;
    const sweepNow = (): string | undefined => {
      if (!this.options.sweepAfter || this.roots().length === 0) return undefined;
      const after = this.scan(stubs);
      let message = describeSweep(sweep(before, after, this.options.quarantineDir, this.movedAway));
      // A tree the command grew past the caps hides what lies beyond: the model and the user are told.
      if (!after.complete && before.complete && !toldCut) {
        toldCut = true;
        const cut = `[sandbox: this command grew the workspace past ${after.dirs} folders; protected paths (a nested .git, .vscode, …) it made beyond those were not looked for. Check before git or the editor looks there.]`;
        message = message ? `${message}\n${cut}` : cut;
      }
      if (message) this.options.onQuarantine?.(message);
      return message;
    };
    return {
      found: before,
      track: (made) => {
        stubs = made;
        unwatch = this.watchWhile(before, sweepNow, (message) => untold.push(message));
      },
      sweep: () => {
        const message = released ? undefined : sweepNow();
        if (message) untold.push(message);
        const told = untold.join("\n");
        untold = [];
        return told || undefined;
      },
      release: () => {
        if (released) return;
        released = true;
        unwatch();
        // Kept for its own result (the shell's exit may be seen after its group is gone), and told to the
        // commands still running (what it finds may be theirs: that cannot be told apart).
        const message = sweepNow();
        if (message) (untold.push(message), this.tellLive([message]));
      },
    };
  }

  private onProtected(path: string): void {
    if (isStub(path)) {
      // Another sandbox's stub that appeared below a root after this one was set up (a second host
      // over a subfolder): not mounted here, so what a job puts into it is watched for.
      if (!this.roots().includes(dirname(path))) this.watch?.watchContents(path);
      return;
    }
    if (this.live.size > 0) this.sweepLiveSoon();
  }

  /** A protected name appeared while commands run: sweep soon (one sweep for a burst of events). */
  private sweepLiveSoon(): void {
    this.sweepTimer ??= setTimeout(() => {
      this.sweepTimer = undefined;
      this.tellLive([...this.live.keys()].flatMap((sweepNow) => sweepNow() ?? []));
    }, 20);
  }

  private tellLive(messages: readonly string[]): void {
    for (const tell of this.live.values()) for (const message of messages) tell(message);
  }

  private watchWhile(before: ProtectedScan, sweepNow: () => string | undefined, tell: (message: string) => void): () => void {
    if (!this.options.sweepAfter) return () => undefined;
    this.live.set(sweepNow, tell);
    if (this.unwatchTimer) clearTimeout(this.unwatchTimer);
    this.unwatchTimer = undefined;
    // The stubs bwrap makes at the top are the sandbox's own, not the command's; events while no command runs are the user's.
    if (this.watch) this.watch.addScanned(before.folders);
    else this.watch = new ProtectedWatch(before.folders, (path) => this.onProtected(path));
    return () => {
      this.live.delete(sweepNow);
      if (this.live.size > 0) return;
      // Kept a while for the next command of the turn (setting up a watch per folder costs about one scan).
      this.unwatchTimer = setTimeout(() => {
        this.unwatchTimer = undefined;
        this.stopWatching();
      }, WATCH_LINGER_MS);
      this.unwatchTimer.unref();
    };
  }

  private stopWatching(): void {
    this.watch?.dispose();
    this.watch = undefined;
  }

  dispose(): void {
    this.stopWatching();
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    if (this.unwatchTimer) clearTimeout(this.unwatchTimer);
  }
}

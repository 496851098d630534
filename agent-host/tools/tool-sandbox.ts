/**
 * Where the processes the tools start run: inside the OS sandbox (shared/node/sandbox) when the
 * host was started with --sandbox, with the user's consent outside it. Two questions, both the
 * permission gate's select dialog, asked whatever the permission mode (the sandbox is the
 * boundary, the mode only decides what is asked before it): "run outside the sandbox" after a
 * sandboxed command failed because of the sandbox, and "run without the sandbox" for every
 * command while the sandbox cannot run here (never a silent fallback; the client is also told
 * once, with a notice). No client to ask: no.
 */
import { CommandSandbox, type NetworkKind, type SandboxProbe } from "../../shared/node/sandbox";
import { sandboxDenial } from "../../shared/node/sandbox/denials";

export type AskClient = (title: string, choices: string[], signal?: AbortSignal) => Promise<string | undefined>;

export const RUN_OUTSIDE_ONCE = "Run outside the sandbox once";
export const RUN_UNSANDBOXED_ONCE = "Run without the sandbox once";
export const DENY = "Deny";

/** How to start one command: in the sandbox, plainly (consented), or not at all. */
export interface Start {
  file: string;
  args: string[];
  sandboxed: boolean;
  /** When its own process ended: moves aside the protected paths it made; what to tell the model. */
  sweep(): string | undefined;
  /** Once nothing it started is left. */
  release(): void;
}
export type Launch = Start | { refused: string };

export class ToolSandbox {
  private told = false;

  constructor(
    readonly sandbox: CommandSandbox,
    private readonly ask: AskClient,
    private readonly notify: (message: string) => void,
  ) {}

  get network(): NetworkKind {
    return this.sandbox.network;
  }

  /** `display` is what the user is shown: the whole command. */
  async launch(argv: readonly string[], cwd: string, display: string, signal?: AbortSignal): Promise<Launch> {
    const probe: SandboxProbe = await this.sandbox.probe();
    if (probe.ok) {
      try {
        await this.sandbox.prepare();
      } catch (error) {
        return { refused: `Not run: the sandbox's network proxy could not start (${(error as Error).message}).` };
      }
      return { ...this.sandbox.wrap(probe, argv, cwd), sandboxed: true };
    }
    if (!this.told) {
      this.told = true;
      this.notify(`The sandbox for the agent's commands cannot run: ${probe.reason}. Every command will be asked before it runs.`);
    }
    const answer = await this.ask(`The sandbox cannot run here (${probe.reason}). Run this command without it?\n\n${display}`, [RUN_UNSANDBOXED_ONCE, DENY], signal);
    if (answer !== RUN_UNSANDBOXED_ONCE) return { refused: `Not run: the sandbox cannot run here (${probe.reason}) and running without it was ${answer === undefined ? "not answered (denied)" : "denied"}.` };
    return plainLaunch(argv);
  }

  /** After a sandboxed run (started at `since`, ms since the epoch) failed: why the sandbox probably caused it, or undefined. */
  denial(outputTail: string, since = 0): string | undefined {
    return sandboxDenial(outputTail, this.network, [...new Set(this.sandbox.refusedSince(since).map((r) => r.target))]);
  }

  /** True only on an explicit yes. */
  async allowOutside(display: string, reason: string, signal?: AbortSignal): Promise<boolean> {
    const answer = await this.ask(`The sandbox stopped this command: ${reason}. Run it again outside the sandbox?\n\n${display}`, [RUN_OUTSIDE_ONCE, DENY], signal);
    return answer === RUN_OUTSIDE_ONCE;
  }

  dispose(): void {
    this.sandbox.dispose();
  }
}

export function plainLaunch(argv: readonly string[]): Start {
  return { file: argv[0], args: argv.slice(1), sandboxed: false, sweep: () => undefined, release: () => undefined };
}

/**
 * The agent's terminals (terminal/*) as the editor runs them (acp-terminals.ts), shown in the
 * editor (pseudo-terminals) and in the tool cards: a card shows the end of its terminal's output,
 * refreshed at most every CARD_REFRESH_MS and before any update of its own. None for an agent in
 * the OS sandbox (ours would run outside it).
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import type { AcpBridgeOptions } from "./acp-bridge-options";
import { AcpTerminals } from "./acp-terminals";
import { Coalescer } from "./coalescer";

/** A card shows the end of its terminal's output (the terminal keeps up to 1 MB; the editor's terminal shows it all). */
const CARD_OUTPUT_BYTES = 64 * 1024;
const CARD_REFRESH_MS = 100;

export class CardTerminals {
  /** Terminal output reaches the cards at most every CARD_REFRESH_MS, and before any update of theirs. */
  private readonly cardOutput: Coalescer<string>;
  private readonly terminals: AcpTerminals;

  /** `cardChanged`: the card of this terminal shows its output anew (its tail). */
  constructor(
    private readonly options: Pick<AcpBridgeOptions, "cwd" | "terminalView" | "terminalEnv" | "sandboxed">,
    cardChanged: (terminalId: string) => void,
  ) {
    this.cardOutput = new Coalescer<string>(cardChanged, CARD_REFRESH_MS);
    this.terminals = new AcpTerminals(options.cwd, {
      created: (id, command) => options.terminalView?.created(id, command),
      output: (id, chunk) => {
        this.cardOutput.changed(id);
        options.terminalView?.output(id, chunk);
      },
      exited: (id, status) => {
        this.cardOutput.flush();
        options.terminalView?.exited(id, status.exitCode ?? null);
      },
    }, options.terminalEnv);
  }

  /** The end of a terminal's output, as its card shows it. */
  cardTail(terminalId: string): string | undefined {
    return this.terminals.tail(terminalId, CARD_OUTPUT_BYTES);
  }

  /** The cards catch up with their terminals' output now. */
  flush(): void {
    this.cardOutput.flush();
  }

  killAll(): void {
    this.terminals.killAll();
  }

  /** Serves the agent's terminal/* requests. */
  serve(app: acp.ClientApp): acp.ClientApp {
    return app
      .onRequest("terminal/create", ({ params }) => {
        if (this.options.sandboxed) throw new Error("This client offers no terminals to a sandboxed agent: run the command with your own tools.");
        return this.terminals.create(params);
      })
      .onRequest("terminal/output", ({ params }) => this.terminals.output(params.terminalId))
      .onRequest("terminal/wait_for_exit", ({ params }) => this.terminals.waitForExit(params.terminalId))
      .onRequest("terminal/kill", ({ params }) => (this.terminals.kill(params.terminalId), {}))
      .onRequest("terminal/release", ({ params }) => (this.terminals.release(params.terminalId), {}));
  }

  dispose(): void {
    this.cardOutput.dispose();
    this.terminals.dispose();
  }
}

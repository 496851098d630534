import type * as vscode from "vscode";
import { errorText } from "../../shared/error-text";
import type { RpcClient } from "../../shared/rpc";

/**
 * How often the bundled host sends a stream's text (set_delta_interval, ours). Every update costs
 * the extension host a read, a parse, a check and the transcript's work, whether or not anyone
 * reads it: while someone watches the stream (its chat on screen, `@pi` answering) the host joins
 * 25 ms of deltas (the chat shows text at most every 50 ms: chat/coalesce-appends.ts); while no one
 * does, 250 ms (the protocol's longest). A chat coming back on screen gets what it missed whole
 * (chat/offscreen-changes.ts) and the host, given the shorter interval, sends what it held at once.
 */
export const WATCHED_DELTA_INTERVAL_MS = 25;
export const UNWATCHED_DELTA_INTERVAL_MS = 250;

/** The supervisor's side this needs: its ready agent, and when one becomes ready. */
export interface PacedAgent {
  readonly readyClient: RpcClient | undefined;
  readonly onReady: vscode.Event<RpcClient>;
}

/** Something that shows the stream: a chat on its surface. */
export interface Watcher {
  readonly visible: boolean;
  readonly onDidChangeVisibility: vscode.Event<void>;
}

/** The pace one session's agent streams at: counts who watches, tells a ready agent that can be paced. */
export class DeltaPace implements vscode.Disposable {
  private watchers = 0;
  /** The interval the agent was last told, and which agent (a restart starts at its default). */
  private told: { client: RpcClient; ms: number } | undefined;
  private readonly ready: vscode.Disposable;

  constructor(
    private readonly agent: PacedAgent,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.ready = agent.onReady((client) => this.tell(client));
  }

  get intervalMs(): number {
    return this.watchers > 0 ? WATCHED_DELTA_INTERVAL_MS : UNWATCHED_DELTA_INTERVAL_MS;
  }

  /** Someone watches the stream until the result is disposed. */
  watch(): vscode.Disposable {
    this.watchers++;
    this.changed();
    let done = false;
    return {
      dispose: () => {
        if (done) return;
        done = true;
        this.watchers--;
        this.changed();
      },
    };
  }

  /** A chat's surface watches while it is on screen. */
  watchWhileVisible(surface: Watcher): vscode.Disposable {
    let watching = surface.visible ? this.watch() : undefined;
    const visibility = surface.onDidChangeVisibility(() => {
      if (surface.visible) watching ??= this.watch();
      else {
        watching?.dispose();
        watching = undefined;
      }
    });
    return {
      dispose: () => {
        visibility.dispose();
        watching?.dispose();
      },
    };
  }

  dispose(): void {
    this.ready.dispose();
  }

  private changed(): void {
    const client = this.agent.readyClient;
    if (client) this.tell(client);
  }

  private tell(client: RpcClient): void {
    const ms = this.intervalMs;
    if (!client.capabilities.deltaPacing || client.isClosed) return;
    if (this.told?.client === client && this.told.ms === ms) return;
    this.told = { client, ms };
    client.request("set_delta_interval", { ms }).then(
      () => this.log.debug(`Delta interval ${ms} ms`),
      (error: unknown) => this.log.warn(`Could not set the delta interval to ${ms} ms: ${errorText(error)}`),
    );
  }
}

/**
 * The sign-ins of a host's MCP servers (`mcp_login` / `mcp_logout`): one at a time per server (a
 * new one cancels the old), each ended by its own time limit, by the host's end, or by a sign-out.
 * A finished sign-in reconnects its server and says so; a failed one says why. The authorization
 * page goes back to the client that asked; the host opens nothing itself.
 */
import type { McpConnection } from "../connection";
import { startSignIn } from "./sign-in";
import { refreshLockPath, withRefreshLock } from "./refresh-lock";
import { mcpAuthSlot } from "./store";
import { errorText } from "../../../shared/error-text";

export type NoticeKind = "info" | "warning" | "error";

export const signInNotice = (name: string): string => `MCP server "${name}" requires sign-in. Sign in from "Pi: MCP Servers" (the mcp_login command).`;


export interface SignInsOptions {
  connections: readonly McpConnection[];
  agentDir?: string;
  report(message: string, kind?: NoticeKind): void;
  /** The browser's time limit (tests shorten it). */
  timeoutMs?: number;
}

export class McpSignIns {
  private readonly running = new Map<McpConnection, AbortController>();

  constructor(private readonly options: SignInsOptions) {}

  private find(name: string): McpConnection & { config: { url: string } } {
    const connection = this.options.connections.find((c) => c.config.name === name);
    if (!connection) throw new Error(`No MCP server named "${name}".`);
    if (!connection.config.oauth || !connection.config.url) throw new Error(`MCP server "${name}" does not use OAuth: only HTTP servers without an Authorization header do.`);
    if (!this.options.agentDir) throw new Error("This host keeps no sign-ins (no agent dir).");
    return connection as McpConnection & { config: { url: string } };
  }

  /** Starts a sign-in; answers the page the user must open, or nothing when the stored refresh token was enough (then reconnected). */
  async signIn(name: string): Promise<{ authorizationUrl?: string }> {
    const connection = this.find(name);
    this.running.get(connection)?.abort();
    const controller = new AbortController();
    this.running.set(connection, controller);
    const release = (): void => {
      if (this.running.get(connection) === controller) this.running.delete(connection);
    };
    let signIn;
    try {
      signIn = await startSignIn({
        serverUrl: connection.config.url,
        settings: connection.config.oauth ?? {},
        slot: mcpAuthSlot(this.options.agentDir!, name, connection.config.url),
        refreshLock: refreshLockPath(this.options.agentDir!, name, connection.config.url),
        signal: controller.signal,
        ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
      });
    } catch (error) {
      release();
      throw new Error(`Sign-in to MCP server "${name}" failed: ${errorText(error)}`);
    }
    const finished = signIn.done.then(
      async () => {
        await connection.reconnect();
        if (connection.state === "connected") this.options.report(`Signed in to MCP server "${name}" (${connection.tools.length} tools).`, "info");
        else this.options.report(`Signed in to MCP server "${name}", but it is ${connection.state}${connection.error ? `: ${connection.error}` : ""}`, "error");
      },
      (error: unknown) => {
        // A sign-in replaced by a newer one, ended by a sign-out or with the host, is not news.
        if (!controller.signal.aborted) this.options.report(`Sign-in to MCP server "${name}" failed: ${errorText(error)}`, "error");
      },
    ).finally(release);
    if (!signIn.authorizationUrl) {
      await finished;
      return {};
    }
    void finished;
    return { authorizationUrl: signIn.authorizationUrl.href };
  }

  /** Deletes the server's stored sign-in and reconnects it (it then waits for a sign-in). */
  async signOut(name: string): Promise<{ removed: boolean }> {
    const connection = this.find(name);
    const running = this.running.get(connection);
    this.running.delete(connection);
    running?.abort();
    // Under the refresh lock: a refresh under way ends (and stores its tokens) first, then they are removed; it cannot undo the sign-out.
    const agentDir = this.options.agentDir!;
    const removed = await withRefreshLock(refreshLockPath(agentDir, name, connection.config.url!), async () => mcpAuthSlot(agentDir, name, connection.config.url!).remove());
    await connection.reconnect();
    return { removed };
  }

  dispose(): void {
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
  }
}

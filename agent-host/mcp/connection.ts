/**
 * One MCP server: connected in the background with the official SDK (stdio or streamable HTTP),
 * its tools listed (again when it says they changed), calls made with the server's timeout and
 * the call's abort signal. A server that fails to start, or dies, is `failed` with the reason
 * (and the tail of a stdio server's stderr); a call to a dropped server connects it again first.
 */
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ToolSandbox } from "../tools/tool-sandbox";
import type { McpServerConfig } from "./config";
import { connectionAuth } from "./oauth/connection-auth";
import { SignInRequired } from "./oauth/provider";
import { loadMcpSdk, type CallToolResult, type McpTool } from "./sdk";
import { errorText } from "../../shared/error-text";

export type ConnectionState = "disabled" | "connecting" | "connected" | "needs-auth" | "failed" | "closed";

/** Bytes of a stdio server's stderr kept for the failure report. */
const STDERR_TAIL = 2000;

export interface ConnectionOptions {
  /** The environment a stdio server starts with (the host's, secrets taken out), its `env` over it. */
  env: NodeJS.ProcessEnv;
  /** Set with --sandbox: a stdio server starts inside it. */
  sandbox?: ToolSandbox;
  /** The session's folder: relative `cwd`s resolve against it, and it is the root offered to servers. */
  cwd: string;
  /** Called whenever the state or the tool list changes. */
  changed(connection: McpConnection): void;
  clientVersion: string;
  /** Where mcp-auth.json lives (the agent dir): an HTTP server's OAuth tokens are read from it. */
  authDir?: string;
}

/** The connection needs a sign-in (the SDK's UnauthorizedError, or our provider's SignInRequired); by class, not name: a minified build renames classes. */
export function isSignInRequired(error: unknown): boolean {
  return error instanceof SignInRequired || error instanceof loadMcpSdk().UnauthorizedError;
}

export class McpConnection {
  state: ConnectionState;
  error: string | undefined;
  instructions: string | undefined;
  tools: McpTool[] = [];
  private client: Client | undefined;
  private stderr = "";
  private connecting: Promise<void> | undefined;
  private release: (() => void) | undefined;
  private disposed = false;
  private resourcesOffered = false;
  /** The stdio transport, for its process id. */
  private stdio: { pid: number | null } | undefined;
  /** The stdio server's process, taken once started (the SDK forgets it when closing begins). */
  private pid: number | undefined;

  constructor(
    readonly config: McpServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    this.state = config.enabled ? "connecting" : "disabled";
  }

  /** Connects (once at a time); resolves when connected or failed, never rejects. */
  connect(): Promise<void> {
    if (!this.config.enabled || this.disposed) return Promise.resolve();
    return (this.connecting ??= this.open().finally(() => (this.connecting = undefined)));
  }

  private async open(): Promise<void> {
    this.set("connecting", undefined);
    let client: Client | undefined;
    try {
      const sdk = loadMcpSdk();
      // Roots: the session's folder, as Pi offers it (servers such as server-everything add tools for clients with roots).
      client = new sdk.Client({ name: "pi-vscode-agent-host", version: this.options.clientVersion }, { capabilities: { roots: {} } });
      client.setRequestHandler(sdk.ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(this.options.cwd).href, name: basename(this.options.cwd) }] }));
      const transport = await this.transport();
      const opened = client;
      client.onclose = () => {
        if (this.client !== opened) return;
        this.client = undefined;
        this.releaseSandbox();
        if (!this.disposed) this.set("failed", `the server closed the connection${this.stderrTail()}`);
      };
      const started = client.connect(transport, { timeout: this.config.timeoutMs });
      this.pid = this.stdio?.pid ?? undefined;
      await started;
      this.client = client;
      this.instructions = client.getInstructions()?.trim() || undefined;
      this.resourcesOffered = client.getServerCapabilities()?.resources !== undefined;
      client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => void this.listTools().catch(() => undefined));
      await this.listTools();
      if (this.disposed) return void (await client.close().catch(() => undefined));
      this.set("connected", undefined);
    } catch (error) {
      // Closing the client ends its transport: a stdio server that never answered is stopped, not left running.
      this.client = undefined;
      await client?.close().catch(() => undefined);
      this.releaseSandbox();
      if (this.config.oauth && isSignInRequired(error)) this.set("needs-auth", "requires sign-in");
      else this.set("failed", `${errorText(error)}${this.stderrTail()}`);
    }
  }

  private async transport(): Promise<Transport> {
    const sdk = loadMcpSdk();
    const { config } = this;
    if (config.transport === "http") {
      const auth = config.oauth && this.options.authDir ? connectionAuth(config, this.options.authDir) : undefined;
      return new sdk.StreamableHTTPClientTransport(new URL(config.url!), { requestInit: { headers: config.headers }, ...(auth ?? {}) });
    }
    const argv = [config.command!, ...config.args];
    let file = argv[0]!;
    let args = argv.slice(1);
    const cwd = config.cwd ?? this.options.cwd;
    if (this.options.sandbox) {
      const launch = await this.options.sandbox.launch(argv, cwd, `MCP server ${config.name}: ${argv.join(" ")}`);
      if ("refused" in launch) throw new Error(launch.refused);
      ({ file, args } = launch);
      this.release = launch.release;
    }
    const env = Object.fromEntries(Object.entries({ ...this.options.env, ...config.env }).filter((e): e is [string, string] => e[1] !== undefined));
    const transport = new sdk.StdioClientTransport({ command: file, args, env, cwd, stderr: "pipe" });
    this.stdio = transport;
    transport.stderr?.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    return transport;
  }

  private async listTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.config.timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
    if (this.state === "connected") this.options.changed(this);
  }

  /** Calls a tool by the server's name for it; a dropped server is connected again first. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    return this.request((client) => client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: this.config.timeoutMs, resetTimeoutOnProgress: true }) as Promise<CallToolResult>, signal);
  }

  /** Whether the server offers resources (its capabilities, once connected). */
  get hasResources(): boolean {
    return this.resourcesOffered;
  }

  /** One MCP request on the connected client (a dropped server is connected again first). */
  async request<T>(send: (client: Client, options: { signal: AbortSignal; timeout: number }) => Promise<T>, signal: AbortSignal): Promise<T> {
    // A server waiting for a sign-in is not dialled again at every call: the sign-in reconnects it.
    if (!this.client && this.state !== "disabled" && this.state !== "needs-auth") await this.connect();
    const client = this.client;
    if (!client) throw new Error(`MCP server ${this.config.name} is not connected: ${this.error ?? this.state}`);
    try {
      return await send(client, { signal, timeout: this.config.timeoutMs });
    } catch (error) {
      // Tokens refused mid-session, and no refresh helped: the server waits for a sign-in.
      if (!this.config.oauth || !isSignInRequired(error)) throw error;
      if (this.client === client) {
        this.client = undefined;
        this.set("needs-auth", "requires sign-in");
        await client.close().catch(() => undefined);
      }
      throw new Error(`MCP server ${this.config.name} requires sign-in`);
    }
  }

  /** Drops the connection (if any) and connects again: after a sign-in or a sign-out. */
  async reconnect(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
    this.releaseSandbox();
    await this.connect();
  }

  private stderrTail(): string {
    const tail = this.stderr.trim();
    return tail ? `\nstderr: ${tail}` : "";
  }

  private set(state: ConnectionState, error: string | undefined): void {
    this.state = state;
    this.error = error;
    this.options.changed(this);
  }

  private releaseSandbox(): void {
    this.release?.();
    this.release = undefined;
  }

  /** At the host's exit, when there is no time to close gently: the stdio server's process is killed. */
  killNow(): void {
    const pid = this.pid;
    if (!pid) return;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const client = this.client;
    this.client = undefined;
    this.state = "closed";
    await client?.close().catch(() => undefined);
    this.releaseSandbox();
  }
}

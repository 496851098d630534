import * as vscode from "vscode";
import { ProcessTransport } from "../shared/node/process-transport";
import { RpcClient } from "../shared/rpc";
import type { AgentStatus } from "../shared/webview-protocol";
import { resolveAgentLaunch, type AgentLaunch } from "./agent-command";
import { Lifetime } from "./lifetime";
import { settings } from "./settings";

/** Hooks run on each new agent process, before it is used (dialog handlers, event forwarding). */
export type AgentAttach = (client: RpcClient, lifetime: Lifetime) => void;

/**
 * Owns the agent process: starts it, reports its status, stops it on deactivate, and tells the
 * user when it exits unexpectedly. "Ready" means it answered get_state.
 */
export class AgentSupervisor implements vscode.Disposable {
  private readonly statusEmitter = new vscode.EventEmitter<AgentStatus>();
  readonly onDidChangeStatus = this.statusEmitter.event;
  private current: { client: RpcClient; transport: ProcessTransport; lifetime: Lifetime; stopping: boolean } | undefined;
  private starting: Promise<RpcClient> | undefined;
  private statusValue: AgentStatus = "stopped";
  private readonly attachHooks: AgentAttach[] = [];

  constructor(
    private readonly extensionPath: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get status(): AgentStatus {
    return this.statusValue;
  }

  get client(): RpcClient | undefined {
    return this.current?.client;
  }

  get pid(): number | undefined {
    return this.current?.transport.pid;
  }

  onAttach(hook: AgentAttach): void {
    this.attachHooks.push(hook);
    if (this.current) hook(this.current.client, this.current.lifetime);
  }

  setStatus(status: AgentStatus): void {
    if (status === this.statusValue) return;
    this.statusValue = status;
    this.statusEmitter.fire(status);
  }

  /** The running agent, started if needed. */
  ensureStarted(): Promise<RpcClient> {
    if (this.current && !this.current.client.isClosed) return Promise.resolve(this.current.client);
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async start(): Promise<RpcClient> {
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
    const launch = resolveAgentLaunch(this.extensionPath, cwd);
    this.setStatus("starting");
    this.log.info(`Starting ${launch.label}: ${launch.command} ${launch.args.join(" ")}`);
    const lifetime = new Lifetime();
    const transport = lifetime.add(ProcessTransport.spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env }));
    const client = lifetime.add(new RpcClient(transport, { trace: this.tracer() }));
    const entry = { client, transport, lifetime, stopping: false };
    this.current = entry;
    lifetime.add(client.onStderr((text) => this.log.debug(`[agent stderr] ${text.trimEnd()}`)));
    lifetime.add(client.onProtocolError((message) => this.log.warn(`[protocol] ${message}`)));
    lifetime.add(client.onExit((info) => this.exited(entry, launch, info.code, info.signal ?? info.error ?? null)));
    for (const hook of this.attachHooks) hook(client, lifetime);
    try {
      await client.request("get_state", {}, { timeoutMs: 30_000 });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.error(`The agent did not start: ${message}`);
      this.setStatus("crashed");
      entry.stopping = true;
      lifetime.dispose();
      if (this.current === entry) this.current = undefined;
      throw new Error(`The agent did not start (${launch.label}): ${message}`);
    }
    this.log.info(`Agent ready (pid ${transport.pid})`);
    this.setStatus("idle");
    return client;
  }

  private exited(entry: NonNullable<AgentSupervisor["current"]>, launch: AgentLaunch, code: number | null, how: string | null): void {
    if (this.current === entry) this.current = undefined;
    if (entry.stopping) return;
    const detail = entry.client.recentStderr.trim().split("\n").slice(-3).join("\n");
    this.log.error(`The agent exited (code ${code}, ${how ?? "no signal"}). ${detail}`);
    this.setStatus("crashed");
    void vscode.window
      .showErrorMessage(`Pi agent (${launch.label}) exited unexpectedly (code ${code}).`, "Restart", "Show Log")
      .then((choice) => {
        if (choice === "Restart") void this.restart();
        else if (choice === "Show Log") this.log.show();
      });
    entry.lifetime.dispose();
  }

  async stop(): Promise<void> {
    const entry = this.current;
    if (!entry) return;
    entry.stopping = true;
    this.current = undefined;
    await entry.transport.stop(2000);
    entry.lifetime.dispose();
    this.setStatus("stopped");
  }

  async restart(): Promise<RpcClient> {
    await this.stop();
    return this.ensureStarted();
  }

  private tracer(): ((direction: "in" | "out", frame: unknown) => void) | undefined {
    const level = settings.trace;
    if (level === "off") return undefined;
    return (direction, frame) => {
      const text = JSON.stringify(frame);
      this.log.trace(`${direction === "in" ? "<-" : "->"} ${level === "verbose" ? text : text.slice(0, 300)}`);
    };
  }

  dispose(): void {
    const entry = this.current;
    this.current = undefined;
    if (entry) {
      entry.stopping = true;
      entry.transport.endInput();
      entry.lifetime.dispose();
    }
    this.statusEmitter.dispose();
  }
}

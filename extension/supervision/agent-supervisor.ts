import { errorText } from "../../shared/error-text";
import * as vscode from "vscode";
import { AcpTransport } from "../acp/acp-transport";
import { acpFeatures, type AcpFeatures } from "../acp/acp-agent-features";
import { RpcClient, type AgentCapabilities } from "../../shared/rpc";
import type { AgentStatus } from "../../shared/webview-protocol";
import { describeLaunch, type AgentLaunch } from "./agent-command";
import { prepareLaunch, type PreparedLaunch } from "./prepare-launch";
import { agentIdentity } from "./launch-args";
import { StartSessions } from "./start-session";
import { oneAtATime } from "./one-at-a-time";
import { Lifetime } from "../lifetime";
import { settings } from "../settings";
import { AgentState, type Recovery, type SessionState } from "./agent-state";
import { applyStartSettings } from "./apply-settings";
import type { RestartPolicy } from "./restart-policy";
import { CrashRestarts } from "./crash-restarts";
import { ProtocolTracer } from "./tracer";
import { trustGate, vscodeWorkspaceTrust, type TrustGate } from "./trust";
import { AgentNotices } from "../ui/agent-notices";
import type { SandboxNote } from "../sandbox/agent-sandbox";
import { openTransport, type AgentTransport } from "./agent-transport";
import { bringUp, editorToolsRoute } from "./agent-bring-up";
import type { AgentAttach, SupervisorOptions } from "./supervisor-options";
import { agentName, toastWorthy } from "./capability-notes";
import { DeltaPace } from "./delta-pace";

interface Running {
  client: RpcClient;
  transport: AgentTransport;
  lifetime: Lifetime;
  launch: AgentLaunch;
  stopping: boolean;
  ready: boolean;
}

/**
 * Owns the agent process: starts it (only in a trusted workspace), probes what it can do,
 * restarts it after a crash with back-off and reopens its session, stops it on deactivate.
 * "Ready" means it answered get_state. Its observable state is `agent` (see AgentState).
 */
export class AgentSupervisor implements vscode.Disposable {
  private readonly lifetime = new Lifetime();
  readonly agent = this.lifetime.add(new AgentState());
  private readonly crashes: CrashRestarts;
  readonly onDidChangeStatus = this.agent.onDidChangeStatus;
  private readonly agentModesEmitter = this.lifetime.add(new vscode.EventEmitter<void>());
  /** An ACP agent's own modes changed (see agentModes). */
  readonly onDidChangeAgentModes = this.agentModesEmitter.event;
  private readonly replacedEmitter = this.lifetime.add(new vscode.EventEmitter<void>());
  /**
   * Another agent starts than the one before (the user changed pi.agent.*): its conversation,
   * header and notes are the old agent's and go; the old agent's session is not reopened.
   */
  readonly onDidReplaceAgent = this.replacedEmitter.event;
  private readonly failedEmitter = this.lifetime.add(new vscode.EventEmitter<string>());
  /** A start failed: what failed, in one line (the chat shows it in place until a start succeeds). */
  readonly onDidFailStart = this.failedEmitter.event;
  /** The last start's failure, until a start succeeds. */
  startFailure: string | undefined;
  private readonly readyEmitter = this.lifetime.add(new vscode.EventEmitter<RpcClient>());
  /** The agent answered get_state, was probed and set up: commands may use it. */
  readonly onReady = this.readyEmitter.event;
  private readonly attachHooks: AgentAttach[] = [];
  private readonly trust: TrustGate;
  private readonly tracer: ProtocolTracer;
  private current: Running | undefined;
  /** What the chat header says about the sandbox of the agent started last (extension/sandbox/). */
  sandboxNote: SandboxNote | undefined;
  private starting: Promise<RpcClient> | undefined;
  private readonly notices: AgentNotices;
  private disposed = false;
  /** Which session each start opens. */
  private readonly sessions: StartSessions;
  /** How often the agent sends a stream's text: often while someone watches it. */
  readonly deltaPace: DeltaPace;

  constructor(private readonly options: SupervisorOptions) {
    this.sessions = new StartSessions(options.sessionFile);
    this.deltaPace = this.lifetime.add(new DeltaPace(this, options.log));
    this.notices = new AgentNotices(options.log, options.owner);
    this.crashes = this.lifetime.add(new CrashRestarts({ log: options.log, agent: this.agent, notices: this.notices, start: () => this.ensureStarted(), ...(options.restartPolicy ? { policy: options.restartPolicy } : {}) }));
    this.tracer = this.lifetime.add(new ProtocolTracer(options.log, () => this.agent.refreshSoon()));
    const show = { setBlocked: (message: string | undefined) => this.agent.setBlocked(message), untrusted: () => this.notices.untrustedOnce(), granted: () => this.notices.trustGranted() };
    this.trust = this.lifetime.add(
      trustGate(options.trust ?? vscodeWorkspaceTrust, show, () => void this.ensureStarted().catch((error: unknown) => this.log.warn(`Starting after trust was granted failed: ${errorText(error)}`))),
    );
  }

  private get log(): vscode.LogOutputChannel {
    return this.options.log;
  }

  get status(): AgentStatus {
    return this.agent.status;
  }

  get client(): RpcClient | undefined {
    return this.current?.client;
  }

  /** The folder the agent runs in (its launch's, else the one the next start uses): a rewind restores files only inside it. */
  get workspaceFolder(): string {
    return this.current?.launch.cwd ?? this.options.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  }

  /** The client of a started, probed agent. */
  get readyClient(): RpcClient | undefined {
    return this.current?.ready ? this.current.client : undefined;
  }

  get pid(): number | undefined {
    return this.current?.transport.pid;
  }

  /** What the running agent offers when it speaks ACP (its name, modes, sign-out, sessions); undefined for a Pi agent. */
  get acp(): AcpFeatures | undefined {
    return acpFeatures(this.current?.transport);
  }

  get capabilities(): AgentCapabilities | undefined {
    return this.agent.capabilities;
  }

  get state(): SessionState | undefined {
    return this.agent.session;
  }

  onAttach(hook: AgentAttach): void {
    this.attachHooks.push(hook);
    if (this.current) hook(this.current.client, this.current.lifetime, this.options.owner ?? "");
  }

  setStatus(status: AgentStatus): void {
    this.agent.setStatus(status);
  }

  /** The running agent, started if needed. */
  ensureStarted(): Promise<RpcClient> {
    if (this.current && !this.current.client.isClosed && this.current.ready) return Promise.resolve(this.current.client);
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Says a start failed (the chat's entry, the notification); the error to throw. */
  private failedStart(failure: string): Error {
    this.startFailure = failure;
    this.failedEmitter.fire(failure);
    return new Error(failure);
  }

  private async start(): Promise<RpcClient> {
    if (this.disposed) throw new Error("The Pi extension is shutting down");
    this.trust.check();
    this.crashes.cancel();
    const next = this.sessions.next(agentIdentity(settings.agentCommand, settings.agentProtocol, settings.agentArgs), this.agent.takeRecovery());
    const { recovery, sessionFile, chosen } = next;
    if (next.replaced) {
      this.log.info("Another agent is configured: it starts a session of its own (the last agent's session stays in its folder).");
      this.replacedEmitter.fire();
    }
    let prepared: PreparedLaunch;
    try {
      prepared = await prepareLaunch(this.options, { sessionFile, chosen, permissionMode: this.agent.session?.permissionMode }, this.notices);
    } catch (error) {
      // Nothing started (the sandbox refused the launch, a gateway could not listen): a failed start all the same.
      throw this.failedBeforeSpawn(error, recovery);
    }
    const { launch, lifetime, bridge } = prepared;
    this.sandboxNote = prepared.sandboxNote;
    this.agent.setStatus("starting");
    this.log.info(`Starting ${launch.label}: ${describeLaunch(launch)}${sessionFile ? " (reopening the session)" : ""}`);
    let transport: AgentTransport;
    try {
      transport = lifetime.add(await openTransport(prepared, this.options, () => this.agentModesEmitter.fire()));
    } catch (error) {
      // Nothing to talk to (spawn refused the command line, the ACP SDK did not load): what the launch holds goes.
      lifetime.dispose();
      throw this.failedBeforeSpawn(error, recovery);
    }
    const client = lifetime.add(new RpcClient(transport, { trace: this.tracer.hook }));
    const entry: Running = { client, transport, lifetime, launch, stopping: false, ready: false };
    this.current = entry;
    lifetime.add(client.onStderr((text) => this.log.debug(`[agent stderr] ${text.trimEnd()}`)));
    lifetime.add(client.onProtocolError((message) => this.log.warn(`[protocol] ${message}`)));
    lifetime.add(client.onExit((info) => this.exited(entry, info.code, info.signal ?? info.error ?? null)));
    lifetime.add(this.agent.observe(client));
    for (const hook of this.attachHooks) hook(client, lifetime, this.options.owner ?? "");
    try {
      await bringUp({ client, transport, launch, bridge, recovery, agent: this.agent, log: this.log });
    } catch (error) {
      const message = errorText(error);
      this.log.error(`The agent did not start: ${message}${client.recentStderr.trim() ? `\n[agent stderr]\n${client.recentStderr.trim()}` : ""}`);
      // Stopped while it started (Stop, Restart): stopped, not crashed. (Read before it is set
      // below: the status stayed "Starting agent…" after every failed start.)
      const stoppedMeanwhile = entry.stopping;
      entry.stopping = true;
      lifetime.dispose();
      if (this.current === entry) this.current = undefined;
      if (!stoppedMeanwhile) this.agent.setStatus("crashed", true);
      if (recovery) this.agent.keepRecovery(recovery);
      throw this.failedStart(`The agent did not start (${launch.label}): ${message}`);
    }
    entry.ready = true;
    this.startFailure = undefined;
    this.notices.agentUp();
    const editorToolsVia = editorToolsRoute(client, bridge);
    if (editorToolsVia) this.log.info(`Editor tools: ${editorToolsVia === "bridge" ? "through the editor bridge (a Pi extension)" : "through set_host_tools"}`);
    this.agent.setCapabilities(client.capabilities, launch.label, settings.interruptMode !== "default", editorToolsVia);
    this.notices.notesOnce(agentName(launch, client.capabilities), toastWorthy(this.agent.notes));
    this.agent.setStatus("idle");
    this.readyEmitter.fire(client);
    if (recovery?.queue.length) this.agent.reportUndelivered(recovery.queue);
    return client;
  }

  /** A start that failed before there was an agent to talk to: crashed, its recovery kept, the failure said. */
  private failedBeforeSpawn(error: unknown, recovery: Recovery | undefined): Error {
    this.log.error(`The agent did not start: ${errorText(error)}`);
    this.agent.setStatus("crashed", true);
    if (recovery) this.agent.keepRecovery(recovery);
    return this.failedStart(`The agent did not start: ${errorText(error)}`);
  }

  private exited(entry: Running, code: number | null, how: string | null): void {
    if (this.current === entry) this.current = undefined;
    if (entry.stopping || !entry.ready) return; // a failed start is reported by start()
    const detail = entry.client.recentStderr.trim().split("\n").slice(-3).join("\n");
    const cause = how ? `signal ${how}` : `code ${code}`;
    this.log.error(`The agent exited unexpectedly (${cause}). ${detail}`);
    entry.lifetime.dispose();
    this.agent.keepRecovery(this.agent.recoveryPoint());
    this.agent.setStatus("crashed");
    this.crashes.crashed(`Pi agent (${entry.launch.label}) exited unexpectedly (${cause})`);
  }

  async stop(): Promise<void> {
    this.crashes.cancel();
    this.notices.agentUp(); // stopped on purpose: no restart is coming, nothing is down by accident
    const entry = this.current;
    if (!entry) return;
    entry.stopping = true;
    this.current = undefined;
    await entry.transport.stop(2000);
    entry.lifetime.dispose();
    this.agent.setStatus("stopped");
  }

  /**
   * Stops and starts the agent, reopening its session; a fresh count for the crash limit. Asked
   * again while a restart runs (settings changed one by one, a command meanwhile): one more restart
   * after it, with the settings as they are then. Never two at once: the second took the first's
   * recovery point away, and its session was not reopened.
   */
  readonly restart: () => Promise<RpcClient> = oneAtATime(() => this.restartNow());

  private async restartNow(): Promise<RpcClient> {
    this.crashes.policy.reset();
    const recovery: Recovery | undefined = this.current?.ready ? this.agent.recoveryPoint() : this.agent.takeRecovery();
    // A start waiting for the user's sign-in (an ACP agent) is stopped, which closes its pick,
    // rather than waited for; any other start is waited out. A failed start has reported itself.
    const transport = this.current?.transport;
    if (this.current && !this.current.ready && transport instanceof AcpTransport && transport.bridge.signingIn) await this.stop();
    await this.starting?.catch(() => undefined);
    await this.stop();
    if (recovery) this.agent.keepRecovery(recovery);
    return this.ensureStarted();
  }

  /**
   * A failed start said in a notification (its chat is not on screen): closed once a start
   * succeeds or the agent is stopped.
   */
  noticeStartFailure(message: string): void {
    this.notices.startFailed(message);
  }

  /** Applies changed model/thinking/queue settings to the running agent. */
  async applySettings(changed: (key: string) => boolean): Promise<void> {
    const client = this.readyClient;
    if (!client) return;
    await applyStartSettings(client, client.capabilities, true, this.log, changed);
    await this.agent.refresh(client);
  }

  /** The crash limit: its count and timing (tests set both for crashes of their own). */
  get policy(): RestartPolicy {
    return this.crashes.policy;
  }

  dispose(): void {
    this.disposed = true;
    this.crashes.cancel();
    const entry = this.current;
    this.current = undefined;
    if (entry) {
      entry.stopping = true;
      entry.transport.endInput();
      entry.lifetime.dispose();
    }
    this.lifetime.dispose();
    this.notices.dispose();
  }
}


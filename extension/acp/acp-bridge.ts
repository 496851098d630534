/**
 * One ACP agent seen as a Pi RPC agent. The chat, the supervisor and every feature keep talking
 * Pi RPC through their `RpcClient`; this bridge answers its commands with ACP requests
 * (acp-commands.ts; prompts, the queue and Abort in acp-turns.ts) and turns what
 * the agent sends into Pi frames: `session/update` into events (acp-events.ts),
 * `session/request_permission` into a `select` dialog, `fs/*` into the editor's services, and
 * `terminal/*` into our terminals (acp-card-terminals.ts). What ACP has no word for is refused with a sentence that says
 * so (the chat shows it).
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
export type { AcpFileServices } from "./acp-files";
import type { AgentEvent, AgentMessage, CommandType } from "../../shared/protocol";
import { SessionChoices } from "./acp-session-choices";
import { answerCommand, type Frame } from "./acp-commands";
import { AcpEventTranslator } from "./acp-events";
import { FileRequests } from "./acp-files";
import { PermissionDialogs } from "./acp-dialogs";
import { CardTerminals } from "./acp-card-terminals";
import { AcpTurns, errorText } from "./acp-turns";
import { AgentModes, type ModeChoice } from "./acp-modes";
import type { AcpSdk } from "./sdk";
import { SignIn } from "./acp-sign-in";
import type { AcpBridgeOptions } from "./acp-bridge-options";
import type { SignOutResult } from "./acp-sign-out";

export class AcpBridge {
  private connection: acp.ClientConnection | undefined;
  private sessionId: string | undefined;
  private ready: Promise<void> | undefined;
  private readonly transcript: AgentMessage[] = [];
  private readonly dialogs: PermissionDialogs;
  private readonly files: FileRequests;
  /** The agent's terminals, their output in the cards. */
  private readonly terminals: CardTerminals;
  /** Prompts, the queue and Abort (acp-turns.ts); its translator turns session/update into events. */
  private readonly turns: AcpTurns;
  private readonly agentModes: AgentModes;
  private commands: { name: string; description?: string }[] = [];
  agentInfo: acp.Implementation | undefined;
  agentCapabilities: acp.AgentCapabilities | undefined;
  /** The agent's config options (the model picker's), saved sessions' list, session/close. */
  private readonly choices: SessionChoices;
  private readonly signIn: SignIn;

  constructor(
    private readonly sdk: AcpSdk,
    private readonly toClient: (frame: unknown) => void,
    private readonly options: AcpBridgeOptions,
  ) {
    this.dialogs = new PermissionDialogs(toClient);
    const agent = () => this.connection!.agent;
    const sessionId = () => this.sessionId!;
    const name = () => this.name;
    this.signIn = new SignIn(options.signIn, options.invocation, agent, name, options.signInEnv, options.signInMemory);
    this.choices = new SessionChoices({ agent, sessionId, name, capabilities: () => this.agentCapabilities, cwd: options.cwd, log: options.log });
    this.agentModes = new AgentModes({ agent, sessionId, name, ready: () => this.ready ?? Promise.resolve(), choices: this.choices, onModes: options.onModes });
    this.turns = new AcpTurns({
      agent, sessionId, name, transcript: this.transcript,
      emit: (event) => this.emit(event),
      newTranslator: () => this.newTranslator(),
      flushOutput: () => this.terminals.flush(),
      killTerminals: () => this.terminals.killAll(),
      cancelQuestions: () => this.dialogs.cancelAll(),
      cancelSignIn: () => this.signIn.cancel(),
      signedIn: (call, aborted) => this.signIn.around(call, aborted),
    });
    this.files = new FileRequests(options, () => this.name);
    this.terminals = new CardTerminals(options, (id) => this.turns.events.terminalOutput(id));
  }

  /** Connects over `stream`, initializes and opens a session; commands wait for it. */
  connect(stream: acp.Stream): Promise<void> {
    const app = this.clientApp();
    this.connection = app.connect(stream);
    // The agent gone (exited, its output ended): a sign-in the user is in is closed, not left open for nobody.
    this.connection.signal.addEventListener("abort", () => this.signIn.close(`${this.name}'s connection closed`), { once: true });
    this.ready = this.start(this.connection);
    this.ready.catch((error: unknown) => this.options.log?.(`ACP start failed: ${errorText(error)}`)); // the first command reports it
    return this.ready;
  }

  /**
   * Resolves when the agent's session is open; rejects with the start's error, or when the start
   * took longer than `ms` not counting the user's time signing in (a terminal login takes minutes).
   */
  whenStarted(ms: number): Promise<void> {
    if (!this.ready) return Promise.reject(new Error(`${this.name} is not connected`));
    return this.signIn.deadline(this.ready, ms, () => `${this.name} did not open a session within ${ms} ms`);
  }

  /** Resolves when the ACP connection has closed (the agent's output ended, or dispose). */
  get closed(): Promise<void> {
    return this.connection?.closed ?? Promise.resolve();
  }

  /** A Pi frame from the RpcClient: a command, or a dialog's answer. */
  receive(frame: Frame): void {
    if (frame.type === "extension_ui_response") {
      this.dialogs.answer(String(frame.id), frame);
      return;
    }
    // Abort closes a sign-in the user is in at once (at the start too: it does not wait for the session).
    if (frame.type === "abort" || frame.type === "abort_and_prompt") this.signIn.cancel();
    void this.command(frame);
  }

  get name(): string {
    return this.agentInfo?.title ?? this.agentInfo?.name ?? this.options.agentName;
  }

  /** The agent's modes, as it last gave them (session/new, current_mode_update, set_mode). */
  get modes(): acp.SessionModeState | undefined {
    return this.agentModes.state;
  }

  dispose(): void {
    this.signIn.close("the session closed");
    this.dialogs.cancelAll();
    this.terminals.dispose();
    this.connection?.close();
  }

  private newTranslator(): AcpEventTranslator {
    return new AcpEventTranslator((event) => this.emit(event), () => this.name, (id) => this.terminals.cardTail(id));
  }

  private emit(event: AgentEvent): void {
    this.toClient(event);
  }

  /** What the agent may send: its session's updates, and its requests for questions, files and terminals. */
  private clientApp(): acp.ClientApp {
    const app = this.sdk
      .client()
      .onNotification("session/update", ({ params }) => {
        if (params.sessionId !== this.sessionId) return;
        this.terminals.flush();
        if (params.update.sessionUpdate === "current_mode_update" && this.modes) this.agentModes.change({ ...this.modes, currentModeId: params.update.currentModeId });
        if (params.update.sessionUpdate === "config_option_update") {
          this.choices.configOptions = params.update.configOptions;
          this.agentModes.optionsChanged(); // a mode option may have changed
        }
        if (params.update.sessionUpdate === "available_commands_update") this.commands = params.update.availableCommands.map((c) => ({ name: c.name, description: c.description }));
        this.turns.events.handle(params.update);
      })
      .onRequest("session/request_permission", ({ params, signal }) => this.askPermission(params, signal))
      .onRequest("fs/read_text_file", ({ params }) => this.files.read(params))
      .onRequest("fs/write_text_file", ({ params }) => this.files.write(params, (file, content) => this.turns.events.announceWrite(file, content)));
    return this.terminals.serve(app);
  }

  private async start(connection: acp.ClientConnection): Promise<void> {
    const request: acp.InitializeRequest = {
      protocolVersion: this.sdk.PROTOCOL_VERSION,
      // Honest: we serve fs reads and writes (through the editor) and terminals; terminal sign-in where the editor can run it.
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: !this.options.sandboxed, auth: this.signIn.capability },
      clientInfo: { name: "pi-vscode", title: "Pi Agent for VS Code", version: "1" },
    };
    const init = await connection.agent.request("initialize", request);
    this.agentInfo = init.agentInfo ?? undefined;
    this.agentCapabilities = init.agentCapabilities;
    this.signIn.offered(init.authMethods);
    await this.signIn.resume();
    await this.newSession(connection);
  }

  private async newSession(connection: acp.ClientConnection): Promise<void> {
    await this.choices.closeSession(this.sessionId);
    const session = await this.signIn.around(() => connection.agent.request("session/new", { cwd: this.options.cwd, mcpServers: [] }));
    this.sessionId = session.sessionId;
    this.agentModes.change(session.modes ?? undefined);
    this.choices.configOptions = session.configOptions ?? [];
    if (!session.modes) this.agentModes.optionsChanged(); // a mode option may be there
    this.transcript.length = 0;
    this.turns.events = this.newTranslator();
  }

  /** What the agent says it can do with saved sessions (initialize): list them, load one (with its history). */
  get sessionSupport(): { list: boolean; load: boolean } {
    return this.choices.support();
  }

  /** Whether the user is signing in to this agent now (its pick, confirmation or terminal is open). */
  get signingIn(): boolean {
    return this.signIn.asking;
  }

  /** Whether the agent declares ACP's `logout` (initialize's agentCapabilities.auth.logout). */
  get logoutOffered(): boolean {
    return Boolean(this.agentCapabilities?.auth?.logout);
  }

  /** Sign Out (acp-sign-in.ts): `logout` where the agent declares it, and what the editor gave it this run. */
  async signOut(): Promise<SignOutResult> {
    await this.ready;
    return this.signIn.signOut(this.logoutOffered);
  }

  /** session/list for this folder (Resume Session's list). */
  async listSessions(): Promise<acp.SessionInfo[]> {
    await this.ready;
    return this.choices.listSessions();
  }

  /**
   * session/load: the agent reopens a saved session and replays it as session/updates, which
   * become this bridge's transcript (get_messages: the chat shows it when the session id changes).
   * Nothing of the replay streams to the chat. The run in progress, if any, is aborted first.
   */
  async loadSession(sessionId: string): Promise<void> {
    await this.ready;
    if (!this.sessionSupport.load) throw new Error(`${this.name} cannot reopen a session (no loadSession).`);
    await this.turns.abort();
    const previousId = this.sessionId;
    const replay = new AcpEventTranslator(() => undefined, () => this.name, (id) => this.terminals.cardTail(id), true);
    this.sessionId = sessionId;
    this.turns.events = replay;
    try {
      const loaded = await this.signIn.around(() => this.connection!.agent.request("session/load", { sessionId, cwd: this.options.cwd, mcpServers: [] }));
      this.terminals.flush();
      replay.finish("stop");
      this.transcript.length = 0;
      this.transcript.push(...replay.messages);
      if (loaded.modes) this.agentModes.change(loaded.modes);
      this.choices.configOptions = loaded.configOptions ?? this.choices.configOptions;
      if (previousId !== sessionId) await this.choices.closeSession(previousId);
    } catch (error) {
      this.sessionId = previousId;
      throw error;
    } finally {
      this.turns.events = this.newTranslator();
    }
  }

  /**
   * The agent's own modes for our mode picker: its `modes` (session/set_mode), or for an agent
   * that offers them as a config option of category "mode" only (opencode), that option's values
   * (session/set_config_option).
   */
  modeChoice(): ModeChoice | undefined {
    return this.agentModes.choice();
  }

  /** session/set_mode: one of the agent's own modes (our mode picker lists them). */
  setMode(modeId: string): Promise<void> {
    return this.agentModes.set(modeId);
  }

  private async command(frame: Frame): Promise<void> {
    const type = frame.type as CommandType;
    try {
      await this.ready;
      const data = await answerCommand(type, frame, {
        turns: this.turns, choices: this.choices, sessionId: () => this.sessionId, name: () => this.name, transcript: this.transcript,
        commands: () => this.commands, newSession: () => this.newSession(this.connection!),
      });
      this.toClient({ type: "response", command: type, success: true, ...(frame.id ? { id: frame.id } : {}), ...(data === undefined ? {} : { data }) });
    } catch (error) {
      // The agent is gone: the transport reports its exit (code, stderr) to every request waiting.
      if (this.connection?.signal.aborted) return;
      this.toClient({ type: "response", command: type, success: false, ...(frame.id ? { id: frame.id } : {}), error: errorText(error) });
    }
  }

  private askPermission(request: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    if (this.turns.aborting) return Promise.resolve({ outcome: { outcome: "cancelled" } });
    this.turns.events.noteToolCall(request.toolCall);
    return this.dialogs.ask(this.name, request, signal);
  }
}

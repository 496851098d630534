/**
 * One ACP agent seen as a Pi RPC agent. The chat, the supervisor and every feature keep talking
 * Pi RPC through their `RpcClient`; this bridge answers its commands with ACP requests
 * (prompt → session/prompt, abort → session/cancel, new_session → session/new) and turns what
 * the agent sends into Pi frames: `session/update` into events (acp-events.ts),
 * `session/request_permission` into a `select` dialog, `fs/*` into the editor's services, and
 * `terminal/*` into our terminals. What ACP has no word for is refused with a sentence that says
 * so (the chat shows it).
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
export type { AcpFileServices } from "./acp-files";
import type { AgentEvent, AgentMessage, CommandType } from "../../shared/protocol";
import { currentModelOf, modelsOf, thinkingOf } from "./acp-config";
import { SessionChoices } from "./acp-session-choices";
import { answerQuery } from "./acp-queries";
import { AcpEventTranslator } from "./acp-events";
import { FileRequests, type AcpFileServices } from "./acp-files";
import { PermissionDialogs } from "./acp-dialogs";
import { AcpTerminals } from "./acp-terminals";
import { Coalescer } from "./coalescer";
import type { AcpSdk } from "./sdk";

export interface AcpBridgeOptions {
  cwd: string;
  /** For titles and messages: "Gemini CLI" or the command. */
  agentName: string;
  files: AcpFileServices;
  /** The agent's terminals are shown in the editor too (pseudo-terminals); absent: only in the card. */
  terminalView?: { created(terminalId: string, command: string): void; output(terminalId: string, text: string): void; exited(terminalId: string, exitCode: number | null): void };
  /** The agent's modes changed (session/new, current_mode_update, set_mode). */
  onModes?: (modes: acp.SessionModeState | undefined) => void;
  /**
   * The agent runs in the OS sandbox (pi.sandbox.otherAgents): the editor must not do for it what
   * the sandbox forbids. No terminal/* (ours run in the editor's environment, outside: the agent
   * runs its commands itself, inside), and no write under a name the sandbox keeps read-only
   * (.git, .vscode, … at any depth).
   */
  sandboxed?: boolean;
  /** Environment of the commands the agent runs through terminal/create. */
  terminalEnv?: NodeJS.ProcessEnv;
  log?: (message: string) => void;
}

type Frame = Record<string, unknown> & { type: string; id?: string };

/** A card shows the end of its terminal's output (the terminal keeps up to 1 MB; the editor's terminal shows it all). */
const CARD_OUTPUT_BYTES = 64 * 1024;
const CARD_REFRESH_MS = 100;
type QueuedPrompt = { text: string; images: { data: string; mimeType: string }[] | undefined };

const stopReasons: Record<string, "stop" | "length" | "aborted" | "error"> = {
  end_turn: "stop", max_tokens: "length", max_turn_requests: "length", refusal: "error", cancelled: "aborted",
};

export class AcpBridge {
  private connection: acp.ClientConnection | undefined;
  private sessionId: string | undefined;
  private ready: Promise<void> | undefined;
  private run: Promise<void> | undefined;
  private events: AcpEventTranslator;
  private readonly transcript: AgentMessage[] = [];
  private readonly dialogs: PermissionDialogs;
  private readonly files: FileRequests;
  private readonly terminals: AcpTerminals;
  /** Terminal output reaches the cards at most every CARD_REFRESH_MS, and before any update of theirs. */
  private readonly cardOutput = new Coalescer<string>((id) => this.events.terminalOutput(id), CARD_REFRESH_MS);
  private commands: { name: string; description?: string }[] = [];
  private queue: { steering: QueuedPrompt[]; followUp: QueuedPrompt[] } = { steering: [], followUp: [] };
  private cancelled = false;
  agentInfo: acp.Implementation | undefined;
  agentCapabilities: acp.AgentCapabilities | undefined;
  modes: acp.SessionModeState | undefined;
  /** The agent's config options (the model picker's), saved sessions' list, session/close. */
  private readonly choices: SessionChoices;

  constructor(
    private readonly sdk: AcpSdk,
    private readonly toClient: (frame: unknown) => void,
    private readonly options: AcpBridgeOptions,
  ) {
    this.events = this.newTranslator();
    this.dialogs = new PermissionDialogs(toClient);
    this.choices = new SessionChoices({ agent: () => this.connection!.agent, sessionId: () => this.sessionId!, name: () => this.name, capabilities: () => this.agentCapabilities, cwd: options.cwd, log: options.log });
    this.files = new FileRequests(options, () => this.name);
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

  /** Connects over `stream`, initializes and opens a session; commands wait for it. */
  connect(stream: acp.Stream): Promise<void> {
    const app = this.clientApp();
    this.connection = app.connect(stream);
    this.ready = this.start(this.connection);
    this.ready.catch((error: unknown) => this.options.log?.(`ACP start failed: ${errorText(error)}`)); // the first command reports it
    return this.ready;
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
    void this.command(frame);
  }

  get name(): string {
    return this.agentInfo?.title ?? this.agentInfo?.name ?? this.options.agentName;
  }

  dispose(): void {
    this.cardOutput.dispose();
    this.dialogs.cancelAll();
    this.terminals.dispose();
    this.connection?.close();
  }

  private newTranslator(): AcpEventTranslator {
    return new AcpEventTranslator((event) => this.emit(event), () => this.name, (id) => this.terminals.tail(id, CARD_OUTPUT_BYTES));
  }

  private emit(event: AgentEvent): void {
    this.toClient(event);
  }

  private clientApp(): acp.ClientApp {
    return this.sdk
      .client()
      .onNotification("session/update", ({ params }) => {
        if (params.sessionId !== this.sessionId) return;
        this.cardOutput.flush();
        if (params.update.sessionUpdate === "current_mode_update" && this.modes) this.changeModes({ ...this.modes, currentModeId: params.update.currentModeId });
        if (params.update.sessionUpdate === "config_option_update") {
          this.choices.configOptions = params.update.configOptions;
          this.options.onModes?.(this.modes); // a mode option may have changed
        }
        if (params.update.sessionUpdate === "available_commands_update") this.commands = params.update.availableCommands.map((c) => ({ name: c.name, description: c.description }));
        this.events.handle(params.update);
      })
      .onRequest("session/request_permission", ({ params, signal }) => this.askPermission(params, signal))
      .onRequest("fs/read_text_file", ({ params }) => this.files.read(params))
      .onRequest("fs/write_text_file", ({ params }) => this.files.write(params, (file, content) => this.events.announceWrite(file, content)))
      .onRequest("terminal/create", ({ params }) => {
        if (this.options.sandboxed) throw new Error("This client offers no terminals to a sandboxed agent: run the command with your own tools.");
        return this.terminals.create(params);
      })
      .onRequest("terminal/output", ({ params }) => this.terminals.output(params.terminalId))
      .onRequest("terminal/wait_for_exit", ({ params }) => this.terminals.waitForExit(params.terminalId))
      .onRequest("terminal/kill", ({ params }) => (this.terminals.kill(params.terminalId), {}))
      .onRequest("terminal/release", ({ params }) => (this.terminals.release(params.terminalId), {}));
  }

  private async start(connection: acp.ClientConnection): Promise<void> {
    const init = await connection.agent.request("initialize", {
      protocolVersion: this.sdk.PROTOCOL_VERSION,
      // Honest: we serve fs reads and writes (through the editor) and terminals; no auth UI yet.
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: !this.options.sandboxed },
      clientInfo: { name: "pi-vscode", title: "Pi Agent for VS Code", version: "1" },
    });
    this.agentInfo = init.agentInfo ?? undefined;
    this.agentCapabilities = init.agentCapabilities;
    await this.newSession(connection);
  }

  private async newSession(connection: acp.ClientConnection): Promise<void> {
    await this.choices.closeSession(this.sessionId);
    const session = await connection.agent.request("session/new", { cwd: this.options.cwd, mcpServers: [] });
    this.sessionId = session.sessionId;
    this.changeModes(session.modes ?? undefined);
    this.choices.configOptions = session.configOptions ?? [];
    if (!session.modes) this.options.onModes?.(undefined); // a mode option may be there
    this.transcript.length = 0;
    this.events = this.newTranslator();
  }



  /** What the agent says it can do with saved sessions (initialize): list them, load one (with its history). */
  get sessionSupport(): { list: boolean; load: boolean } {
    return this.choices.support();
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
    await this.abort();
    const previousId = this.sessionId;
    const replay = new AcpEventTranslator(() => undefined, () => this.name, (id) => this.terminals.tail(id, CARD_OUTPUT_BYTES), true);
    this.sessionId = sessionId;
    this.events = replay;
    try {
      const loaded = await this.connection!.agent.request("session/load", { sessionId, cwd: this.options.cwd, mcpServers: [] });
      this.cardOutput.flush();
      replay.finish("stop");
      this.transcript.length = 0;
      this.transcript.push(...replay.messages);
      if (loaded.modes) this.changeModes(loaded.modes);
      this.choices.configOptions = loaded.configOptions ?? this.choices.configOptions;
      if (previousId !== sessionId) await this.choices.closeSession(previousId);
    } catch (error) {
      this.sessionId = previousId;
      throw error;
    } finally {
      this.events = this.newTranslator();
    }
  }



  /**
   * The agent's own modes for our mode picker: its `modes` (session/set_mode), or for an agent
   * that offers them as a config option of category "mode" only (opencode), that option's values
   * (session/set_config_option).
   */
  modeChoice(): { current: string; available: { id: string; name: string; description?: string }[]; set(id: string): Promise<void> } | undefined {
    if (this.modes) {
      return { current: this.modes.currentModeId, available: this.modes.availableModes.map((m) => ({ id: m.id, name: m.name, ...(m.description ? { description: m.description } : {}) })), set: (id) => this.setMode(id) };
    }
    const option = this.choices.modeOption();
    if (!option) return undefined;
    return {
      current: option.currentValue,
      available: option.values.map((v) => ({ id: v.value, name: v.name, ...(v.description ? { description: v.description } : {}) })),
      set: async (id) => {
        await this.ready;
        await this.choices.setSelect("mode", id);
        this.options.onModes?.(this.modes);
      },
    };
  }

  /** session/set_mode: one of the agent's own modes (our mode picker lists them). */
  async setMode(modeId: string): Promise<void> {
    await this.ready;
    if (!this.modes?.availableModes.some((m) => m.id === modeId)) throw new Error(`${this.name} has no mode ${modeId}`);
    await this.connection!.agent.request("session/set_mode", { sessionId: this.sessionId!, modeId });
    this.changeModes({ ...this.modes, currentModeId: modeId });
  }

  private changeModes(modes: acp.SessionModeState | undefined): void {
    this.modes = modes;
    this.options.onModes?.(modes);
  }

  private async command(frame: Frame): Promise<void> {
    const type = frame.type as CommandType;
    try {
      await this.ready;
      const data = await this.answer(type, frame);
      this.toClient({ type: "response", command: type, success: true, ...(frame.id ? { id: frame.id } : {}), ...(data === undefined ? {} : { data }) });
    } catch (error) {
      // The agent is gone: the transport reports its exit (code, stderr) to every request waiting.
      if (this.connection?.signal.aborted) return;
      this.toClient({ type: "response", command: type, success: false, ...(frame.id ? { id: frame.id } : {}), error: errorText(error) });
    }
  }

  private async answer(type: CommandType, frame: Frame): Promise<unknown> {
    switch (type) {
      case "prompt":
      case "follow_up":
      case "steer": {
        const images = frame.images as { data: string; mimeType: string }[] | undefined;
        if (!this.run) return this.prompt(String(frame.message ?? ""), images);
        // ACP takes no message mid-turn: steering and follow-ups wait for the turn's end, in our queue.
        const steer = type === "steer" || (type === "prompt" && frame.streamingBehavior !== "followUp");
        (steer ? this.queue.steering : this.queue.followUp).push({ text: String(frame.message ?? ""), images });
        this.queueChanged();
        return { disposition: "queued" };
      }
      case "abort":
        await this.abort();
        return undefined;
      case "abort_and_prompt":
        await this.abort();
        this.prompt(String(frame.message ?? ""), frame.images as { data: string; mimeType: string }[] | undefined);
        return undefined;
      case "new_session":
        await this.abort();
        await this.newSession(this.connection!);
        return { cancelled: false };
      case "clear_queue": {
        const cleared = { steering: this.queue.steering.map((m) => m.text), followUp: this.queue.followUp.map((m) => m.text) };
        this.queue = { steering: [], followUp: [] };
        this.queueChanged();
        return cleared;
      }
      case "set_model":
        return this.choices.setModel(String(frame.modelId ?? ""));
      case "set_thinking_level": {
        // The agent's thought_level option where it maps onto our levels; else there is nothing to set.
        const level = String(frame.level ?? "");
        if (thinkingOf(this.choices.configOptions) && level !== thinkingOf(this.choices.configOptions)?.current) await this.choices.setSelect("thought_level", level);
        return undefined;
      }
      case "cycle_model": {
        const models = modelsOf(this.choices.configOptions, this.name);
        if (models.length < 2) return null;
        const at = models.findIndex((m) => m.id === currentModelOf(this.choices.configOptions, this.name)?.id);
        return { model: await this.choices.setModel(models[(at + 1) % models.length]!.id), thinkingLevel: thinkingOf(this.choices.configOptions)?.current ?? "off", isScoped: false };
      }
      default:
        return answerQuery(type, {
          sessionId: this.sessionId ?? "", name: this.name, streaming: this.run !== undefined, transcript: this.transcript, commands: this.commands,
          models: modelsOf(this.choices.configOptions, this.name), model: currentModelOf(this.choices.configOptions, this.name), thinking: thinkingOf(this.choices.configOptions),
        });
    }
  }

  /** Starts a turn; the response comes at once (as Pi's does), the run's events follow. */
  private queueChanged(): void {
    this.emit({ type: "queue_update", steering: this.queue.steering.map((m) => m.text), followUp: this.queue.followUp.map((m) => m.text) });
  }

  private prompt(message: string, images: { data: string; mimeType: string }[] | undefined): { disposition: "started" } {
    const connection = this.connection!;
    const sessionId = this.sessionId!;
    const user: AgentMessage = { role: "user", content: message, timestamp: Date.now() };
    this.transcript.push(user);
    this.cancelled = false;
    this.events = this.newTranslator();
    this.emit({ type: "agent_start" });
    this.emit({ type: "message_start", message: user });
    this.emit({ type: "message_end", message: user });
    const prompt: acp.ContentBlock[] = [{ type: "text", text: message }, ...(images ?? []).map((i) => ({ type: "image" as const, data: i.data, mimeType: i.mimeType }))];
    this.run = connection.agent
      .request("session/prompt", { sessionId, prompt })
      .then(
        (result) => this.endRun(this.cancelled ? "aborted" : (stopReasons[result.stopReason] ?? "stop"), result.stopReason === "refusal" ? `${this.name} refused` : undefined),
        (error: unknown) => this.endRun(this.cancelled ? "aborted" : "error", errorText(error)),
      );
    return { disposition: "started" };
  }

  private endRun(stopReason: "stop" | "length" | "aborted" | "error", errorMessage?: string): void {
    const events = this.events;
    if (stopReason === "error" || stopReason === "aborted") this.terminals.killAll();
    this.cardOutput.flush();
    events.finish(stopReason, errorMessage);
    if (errorMessage && stopReason === "error" && !events.messages.some((m) => m.role === "assistant")) {
      // A failed turn with no text: an assistant message that says why (the chat shows it as an error).
      const failed = { role: "assistant" as const, content: [], api: "acp", provider: this.name, model: this.name, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason, errorMessage, timestamp: Date.now() };
      events.messages.push(failed);
      this.emit({ type: "message_start", message: failed });
      this.emit({ type: "message_end", message: failed });
    }
    this.transcript.push(...events.messages);
    this.run = undefined;
    this.emit({ type: "agent_end", messages: events.messages });
    // The next queued message, as Pi does after a turn; an abort or an error keeps the queue (the chat restores it).
    const next = stopReason === "stop" || stopReason === "length" ? (this.queue.steering.shift() ?? this.queue.followUp.shift()) : undefined;
    if (next) {
      this.queueChanged();
      this.prompt(next.text, next.images);
      return;
    }
    this.emit({ type: "agent_settled", ...(stopReason === "aborted" ? { aborted: true } : {}) });
  }

  /** session/cancel; open questions are answered "cancelled"; commands are killed; resolves when the turn has ended. */
  private async abort(): Promise<void> {
    const run = this.run;
    if (!run) return;
    this.cancelled = true;
    this.dialogs.cancelAll();
    this.terminals.killAll();
    await this.connection!.agent.notify("session/cancel", { sessionId: this.sessionId! });
    await run;
  }

  private askPermission(request: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    if (this.cancelled) return Promise.resolve({ outcome: { outcome: "cancelled" } });
    this.events.noteToolCall(request.toolCall);
    return this.dialogs.ask(this.name, request, signal);
  }

}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object" && "message" in error) return String((error as { message: unknown }).message);
  return String(error);
}

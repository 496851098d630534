import { CancellationToken, Disposable, Emitter, type Event } from "vscode-jsonrpc";
import {
  checkOutbound,
  type AgentEvent,
  type AgentInboundFrame,
  type CommandParams,
  type CommandType,
  type EventOf,
  type EventType,
  type ExtensionUiRequest,
  type HostToolDefinition,
  type ResponseData,
  type RpcResponse,
} from "../protocol";
import { assumedCapabilities, capabilitiesFrom, type AgentCapabilities } from "./capabilities";
import { DialogDispatcher, type DialogHandler, type DialogOutcome, type NoticeHandler } from "./dialogs";
import type { DialogRequest } from "../protocol";
import { RpcError } from "./errors";
import { stderrTail } from "./stderr-cause";
import { HostToolRegistry, type HostToolExecute } from "./host-tool-registry";
import type { FrameTransport, TransportClosed } from "./transport";
import { errorText } from "../error-text";

export interface RpcClientOptions {
  /** Default time a query may take; long-running commands have none (see `untimedCommands`). */
  requestTimeoutMs?: number;
  /** Trace of every frame in and out, for a protocol log. */
  trace?: (direction: "in" | "out", frame: unknown) => void;
}

export interface RequestOptions {
  timeoutMs?: number;
  token?: CancellationToken;
}

/** Commands whose response waits for real work (a run, a compaction, a dialog of an extension command). */
export const untimedCommands: ReadonlySet<CommandType> = new Set<CommandType>([
  "prompt", "abort", "abort_and_prompt", "compact", "bash", "new_session", "switch_session",
  "fork", "clone", "branch", "export_html",
]);

interface Pending {
  command: string;
  resolve(data: unknown): void;
  reject(error: RpcError): void;
  dispose(): void;
}

/**
 * A typed client of one Pi-compatible agent: correlates requests by id, dispatches events,
 * answers extension-UI dialogs and host-tool calls through handlers, and reports the agent's
 * stderr and exit.
 */
export class RpcClient implements Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly eventEmitter = new Emitter<AgentEvent>();
  private readonly uiEmitter = new Emitter<ExtensionUiRequest>();
  private readonly dialogOutcomeEmitter = new Emitter<{ request: DialogRequest; outcome: DialogOutcome }>();
  private readonly unknownEmitter = new Emitter<{ type: string }>();
  private readonly protocolErrorEmitter = new Emitter<string>();
  private readonly exitEmitter = new Emitter<TransportClosed>();
  private readonly settledEmitter = new Emitter<void>();
  private readonly commandEmitter = new Emitter<CommandType>();
  private readonly subscriptions: Disposable[] = [];
  private readonly stderr = stderrTail();
  private readonly dialogs: DialogDispatcher;
  private readonly hostTools: HostToolRegistry;
  private nextId = 1;
  private closedInfo: TransportClosed | undefined;
  private sawReady = false;
  capabilities: AgentCapabilities = assumedCapabilities;

  readonly onEvent: Event<AgentEvent> = this.eventEmitter.event;
  /** Every extension-UI request, dialogs and notices alike (the handlers answer them). */
  readonly onUiRequest: Event<ExtensionUiRequest> = this.uiEmitter.event;
  readonly onDialogOutcome = this.dialogOutcomeEmitter.event;
  readonly onUnknownFrame: Event<{ type: string }> = this.unknownEmitter.event;
  /** A frame from the agent that was not JSON or did not match the protocol. */
  readonly onProtocolError: Event<string> = this.protocolErrorEmitter.event;
  readonly onExit: Event<TransportClosed> = this.exitEmitter.event;
  /** The run is over: agent_settled, or agent_end without retry where the agent has no agent_settled. */
  readonly onSettled: Event<void> = this.settledEmitter.event;
  /** A command was sent to the agent, from any caller (e.g. an abort, whoever asked for it). */
  readonly onDidSendCommand: Event<CommandType> = this.commandEmitter.event;
  readonly onStderr: Event<string>;

  constructor(
    private readonly transport: FrameTransport,
    private readonly options: RpcClientOptions = {},
  ) {
    const send = (frame: AgentInboundFrame) => this.write(frame);
    this.dialogs = new DialogDispatcher(send, (request, outcome) => this.dialogOutcomeEmitter.fire({ request, outcome }));
    this.hostTools = new HostToolRegistry(send);
    this.onStderr = transport.onStderr;
    this.subscriptions.push(
      transport.onFrame((frame) => this.receive(frame)),
      transport.onBadLine(({ line, error, kept }) =>
        this.protocolErrorEmitter.fire(`${kept ? "A line from the agent had keys dropped" : "Unreadable line from the agent"} (${error}): ${line.slice(0, 200)}`),
      ),
      transport.onStderr((text) => this.stderr.keep(text)),
      transport.onClose((info) => this.closed(info)),
    );
  }

  get isClosed(): boolean {
    return this.closedInfo !== undefined;
  }

  /** The last lines the agent wrote to stderr, for error messages. */
  get recentStderr(): string {
    return this.stderr.recent();
  }

  request<K extends CommandType>(type: K, params: CommandParams<K>, options: RequestOptions = {}): Promise<ResponseData<K>> {
    if (this.closedInfo) return Promise.reject(new RpcError("exited", type, this.exitMessage(this.closedInfo)));
    const id = `req_${this.nextId++}`;
    this.commandEmitter.fire(type);
    const timeoutMs = options.timeoutMs ?? (untimedCommands.has(type) ? 0 : (this.options.requestTimeoutMs ?? 30_000));
    return new Promise<ResponseData<K>>((resolve, reject) => {
      const timer = timeoutMs > 0
        ? setTimeout(() => this.settle(id, new RpcError("timeout", type, `${type} got no response within ${timeoutMs} ms`)), timeoutMs)
        : undefined;
      const cancel = options.token?.onCancellationRequested(() => this.settle(id, new RpcError("cancelled", type, `${type} was cancelled`)));
      this.pending.set(id, {
        command: type,
        resolve: resolve as (data: unknown) => void,
        reject,
        dispose: () => {
          if (timer) clearTimeout(timer);
          cancel?.dispose();
        },
      });
      this.write({ ...params, id, type } as AgentInboundFrame).catch((error: unknown) =>
        this.settle(id, new RpcError("exited", type, `Could not send ${type}: ${errorText(error)}`)),
      );
    });
  }

  /** Subscribe to one event type with its typed payload. */
  on<K extends EventType>(type: K, listener: (event: EventOf<K>) => void): Disposable {
    return this.onEvent((event) => {
      if (event.type === type) listener(event as EventOf<K>);
    });
  }

  /** Resolves with the next event of `type` that matches. */
  waitFor<K extends EventType>(type: K, predicate: (event: EventOf<K>) => boolean = () => true, timeoutMs = 30_000): Promise<EventOf<K>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => (sub.dispose(), exit.dispose(), reject(new Error(`No ${type} within ${timeoutMs} ms`))), timeoutMs);
      const sub = this.on(type, (event) => {
        if (!predicate(event)) return;
        clearTimeout(timer);
        sub.dispose();
        exit.dispose();
        resolve(event);
      });
      const exit = this.onExit((info) => (clearTimeout(timer), sub.dispose(), reject(new Error(this.exitMessage(info)))));
    });
  }

  /** Resolves when the current run has settled. */
  waitForSettled(timeoutMs = 60_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => (sub.dispose(), exit.dispose(), reject(new Error(`The run did not settle within ${timeoutMs} ms`))), timeoutMs);
      const sub = this.onSettled(() => (clearTimeout(timer), sub.dispose(), exit.dispose(), resolve()));
      const exit = this.onExit((info) => (clearTimeout(timer), sub.dispose(), reject(new Error(this.exitMessage(info)))));
    });
  }

  setDialogHandler(handler: DialogHandler | undefined): void {
    this.dialogs.setDialogHandler(handler);
  }

  setNoticeHandler(handler: NoticeHandler | undefined): void {
    this.dialogs.setNoticeHandler(handler);
  }

  /** Registers a tool the client executes; call syncHostTools() to tell the agent. */
  registerHostTool(definition: HostToolDefinition, execute: HostToolExecute): Disposable {
    return this.hostTools.register({ definition, execute });
  }

  /**
   * Sends the registered host tools (set_host_tools replaces the agent's previous set).
   * oh-my-pi reads `loadMode` per tool (without it a tool is only "discoverable"), so each
   * tool gets `loadMode` unless its definition has its own.
   */
  syncHostTools(loadMode = "essential"): Promise<ResponseData<"set_host_tools">> {
    const tools = this.hostTools.definitions().map((tool) => ({ ...tool, loadMode: tool.loadMode ?? loadMode }));
    return this.request("set_host_tools", { tools, loadMode });
  }

  /** Finds out what the agent supports, by asking it. */
  async probe(): Promise<AgentCapabilities> {
    const state = (await this.request("get_state", {})) as unknown as Record<string, unknown>;
    const supports = (type: CommandType, params: object) =>
      this.request(type, params as CommandParams<typeof type>, { timeoutMs: 10_000 }).then(() => true, () => false);
    const hasThinkingLevelsCommand = await supports("get_available_thinking_levels", {});
    const hasHostTools = this.hostTools.definitions().length > 0 ? await this.syncHostTools().then(() => true, () => false) : await supports("set_host_tools", { tools: [] });
    this.capabilities = capabilitiesFrom({ state, sawReadyFrame: this.sawReady, hasThinkingLevelsCommand, hasHostTools });
    return this.capabilities;
  }

  write(frame: AgentInboundFrame): Promise<void> {
    this.options.trace?.("out", frame);
    return this.transport.send(frame);
  }

  private receive(value: unknown): void {
    this.options.trace?.("in", value);
    const checked = checkOutbound(value);
    if (checked.ok === "unknown") {
      if (checked.frame.type === "ready") this.sawReady = true;
      this.unknownEmitter.fire(checked.frame);
      return;
    }
    if (!checked.ok) {
      this.protocolErrorEmitter.fire(checked.error);
      // A response we cannot read must still end its request.
      if (checked.id && this.pending.has(checked.id)) this.settle(checked.id, new RpcError("invalid", checked.type ?? "?", checked.error));
      return;
    }
    const frame = checked.frame;
    switch (frame.type) {
      case "response":
        return this.response(frame);
      case "extension_ui_request":
        this.uiEmitter.fire(frame);
        return this.dialogs.handle(frame);
      case "host_tool_call":
        void this.hostTools.call(frame);
        return;
      case "host_tool_cancel":
        return this.hostTools.cancel(frame.targetId);
      default:
        if (frame.type === "ready") this.sawReady = true;
        this.eventEmitter.fire(frame);
        this.maybeSettled(frame);
    }
  }

  private maybeSettled(event: AgentEvent): void {
    if (event.type === "agent_settled") this.settledEmitter.fire();
    else if (event.type === "agent_end" && event.willRetry !== true && !this.capabilities.agentSettled) this.settledEmitter.fire();
  }

  private response(frame: RpcResponse): void {
    // Pi <= 0.73 and oh-my-pi answer an unknown command without its id: it belongs to the
    // oldest pending request of that command (agents answer commands in order).
    if (!frame.success && frame.command === "parse" && !frame.id) {
      this.protocolErrorEmitter.fire(`The agent could not read a frame we sent: ${frame.error}`);
      return;
    }
    const id = frame.id ?? (frame.success ? undefined : this.oldestPending(frame.command));
    if (!id || !this.pending.has(id)) return; // e.g. a parse error, or omp's late second response
    if (frame.success) this.settle(id, undefined, frame.data);
    else this.settle(id, new RpcError("failed", frame.command, frame.error));
  }

  private oldestPending(command: string): string | undefined {
    for (const [id, pending] of this.pending) if (pending.command === command) return id;
    return undefined;
  }

  private settle(id: string, error: RpcError | undefined, data?: unknown): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    pending.dispose();
    if (error) pending.reject(error);
    else pending.resolve(data);
  }

  private exitMessage(info: TransportClosed): string {
    return this.stderr.exitMessage(info);
  }

  private closed(info: TransportClosed): void {
    if (this.closedInfo) return;
    this.closedInfo = info;
    for (const [id, pending] of [...this.pending]) this.settle(id, new RpcError("exited", pending.command, this.exitMessage(info)));
    this.dialogs.cancelAll();
    this.hostTools.dispose();
    this.exitEmitter.fire(info);
  }

  dispose(): void {
    for (const [id] of [...this.pending]) this.settle(id, new RpcError("cancelled", "dispose", "The client was disposed"));
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
    this.dialogs.dispose();
    this.hostTools.dispose();
    for (const emitter of [this.eventEmitter, this.uiEmitter, this.dialogOutcomeEmitter, this.unknownEmitter, this.protocolErrorEmitter, this.exitEmitter, this.settledEmitter, this.commandEmitter]) emitter.dispose();
  }
}

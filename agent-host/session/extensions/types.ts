/**
 * The part of pi's extension API (`ExtensionAPI`, `ExtensionContext`, `ExtensionUIContext`,
 * pi 0.87.1 `dist/core/extensions/types.d.ts`) that this host implements, declared in our own
 * words. Extensions are plain JavaScript at run time: these types describe what they get.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { AgentMessage, ImageContent, SlashCommand, TextContent } from "../../../shared/protocol";
import type { Model, ThinkingLevel, ToolResultMessage } from "../../ai/types";
import type { AgentToolResult } from "../../agent/tool";
import type { SessionEntry } from "../../../shared/session-format/schema";
import type { SourceInfo } from "../context/resources";

export type { SourceInfo };
export type ExtensionMode = "tui" | "rpc" | "json" | "print";
export type NotifyType = "info" | "warning" | "error";
export type WidgetPlacement = "aboveEditor" | "belowEditor";
export type Content = (TextContent | ImageContent)[];

export interface DialogOptions {
  /** Withdraws the dialog: it resolves with its default (undefined / false). */
  signal?: AbortSignal;
  /** Milliseconds; then the dialog resolves with its default. */
  timeout?: number;
}

/** ctx.ui. In RPC mode the dialogs and notices travel as extension_ui_request frames; terminal-only methods degrade. */
export interface ExtensionUIContext {
  select(title: string, options: string[], opts?: DialogOptions): Promise<string | undefined>;
  confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean>;
  input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined>;
  editor(title: string, prefill?: string): Promise<string | undefined>;
  notify(message: string, type?: NotifyType): void;
  setStatus(key: string, text: string | undefined): void;
  /** String lines only; a component factory is ignored in RPC mode. */
  setWidget(key: string, content: string[] | ((...args: never[]) => unknown) | undefined, options?: { placement?: WidgetPlacement }): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
  pasteToEditor(text: string): void;
  getEditorText(): string;
  /** Terminal components: undefined in RPC mode. */
  custom<T>(...args: unknown[]): Promise<T | undefined>;
  onTerminalInput(handler: (data: string) => unknown): () => void;
  setWorkingMessage(message?: string): void;
  setWorkingVisible(visible: boolean): void;
  setWorkingIndicator(options?: unknown): void;
  setHiddenThinkingLabel(label?: string): void;
  setFooter(factory: unknown): void;
  setHeader(factory: unknown): void;
  addAutocompleteProvider(factory: unknown): void;
  setEditorComponent(factory: unknown): void;
  getEditorComponent(): undefined;
  /** A pass-through theme: styling functions return their text unchanged. */
  readonly theme: PlainTheme;
  getAllThemes(): { name: string; path: string | undefined }[];
  getTheme(name: string): undefined;
  setTheme(theme: unknown): { success: boolean; error?: string };
  getToolsExpanded(): boolean;
  setToolsExpanded(expanded: boolean): void;
}

/** What `ctx.ui.theme.fg("accent", text)` and friends do without a terminal: give back the text. */
export type PlainTheme = Record<string, (...args: unknown[]) => string>;

export interface ContextUsage {
  tokens: number | null;
  contextWindow: number;
  percent: number | null;
}

/** ctx.sessionManager: the session, read-only. */
export interface ReadonlySessionView {
  getCwd(): string;
  getSessionId(): string;
  getSessionFile(): string | undefined;
  getSessionName(): string | undefined;
  getLeafId(): string | null;
  getEntry(id: string): SessionEntry | undefined;
  getEntries(): SessionEntry[];
  getBranch(fromId?: string): SessionEntry[];
}

export interface ModelRegistryView {
  find(provider: string, modelId: string): Model | undefined;
  getAvailable(): Model[];
  getAll(): Model[];
}

/** The `ctx` of event handlers and tools. */
export interface ExtensionContext {
  ui: ExtensionUIContext;
  mode: ExtensionMode;
  hasUI: boolean;
  cwd: string;
  sessionManager: ReadonlySessionView;
  modelRegistry: ModelRegistryView;
  readonly model: Model | undefined;
  readonly scopedModels: readonly Model[];
  readonly thinkingLevel: ThinkingLevel;
  /** The current run's abort signal, undefined while idle. */
  readonly signal: AbortSignal | undefined;
  isIdle(): boolean;
  isProjectTrusted(): boolean;
  abort(): void;
  hasPendingMessages(): boolean;
  shutdown(): void;
  getContextUsage(): ContextUsage | undefined;
  compact(options?: { customInstructions?: string; onComplete?: (result: unknown) => void; onError?: (error: Error) => void }): void;
  getSystemPrompt(): string;
}

/** The `ctx` of command handlers. */
export interface ExtensionCommandContext extends ExtensionContext {
  waitForIdle(): Promise<void>;
  newSession(options?: { parentSession?: string }): Promise<{ cancelled: boolean }>;
  switchSession(sessionPath: string): Promise<{ cancelled: boolean }>;
  fork(entryId: string): Promise<{ cancelled: boolean }>;
  navigateTree(targetId: string): Promise<{ cancelled: boolean }>;
  reload(): Promise<void>;
  getSystemPromptOptions(): { cwd: string };
}

export interface ToolDefinition<TParams extends TSchema = TSchema, TDetails = unknown> {
  name: string;
  label?: string;
  description: string;
  promptSnippet?: string;
  promptGuidelines?: string[];
  parameters: TParams;
  prepareArguments?: (args: unknown) => Static<TParams>;
  executionMode?: "sequential" | "parallel";
  execute(
    toolCallId: string,
    params: Static<TParams>,
    signal: AbortSignal | undefined,
    onUpdate: ((partial: AgentToolResult<TDetails>) => void) | undefined,
    ctx: ExtensionContext,
  ): Promise<AgentToolResult<TDetails>>;
  /** Terminal rendering: accepted, never called here. */
  renderCall?: unknown;
  renderResult?: unknown;
}

export interface CommandOptions {
  description?: string;
  getArgumentCompletions?: unknown;
  handler: (args: string, ctx: ExtensionCommandContext) => Promise<void> | void;
}

export interface CustomMessageInput {
  customType: string;
  content: string | Content;
  display?: boolean;
  details?: unknown;
}

// ---- events -------------------------------------------------------------------------------

export interface ToolCallEvent { type: "tool_call"; toolCallId: string; toolName: string; input: Record<string, unknown> }
export interface ToolCallEventResult { block?: boolean; reason?: string; terminate?: boolean }
export interface ToolResultEvent {
  type: "tool_result"; toolCallId: string; toolName: string; input: Record<string, unknown>;
  content: Content; details: unknown; isError: boolean;
}
export interface ToolResultEventResult { content?: Content; details?: unknown; isError?: boolean }
export interface InputEvent { type: "input"; text: string; images?: ImageContent[]; source: "interactive" | "rpc" | "extension"; streamingBehavior?: "steer" | "followUp" }
export type InputEventResult = { action: "continue" } | { action: "transform"; text: string; images?: ImageContent[] } | { action: "handled" };
export interface ContextEvent { type: "context"; messages: AgentMessage[] }
export interface ContextEventResult { messages?: AgentMessage[] }

/** Events that only inform: their handlers' results are ignored. */
export type NotifyEvent =
  | { type: "session_start"; reason: "startup" | "reload" | "new" | "resume" | "fork"; previousSessionFile?: string }
  | { type: "session_shutdown"; reason: "quit" | "reload" | "new" | "resume" | "fork" }
  | { type: "session_info_changed"; name: string | undefined }
  | { type: "agent_start" }
  | { type: "agent_end"; messages: AgentMessage[] }
  | { type: "agent_settled" }
  | { type: "turn_start"; turnIndex: number; timestamp: number }
  | { type: "turn_end"; turnIndex: number; message: AgentMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AgentMessage; assistantMessageEvent: unknown }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; args: unknown; partialResult: unknown }
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: unknown; isError: boolean };

/** Event name → [event, what a handler may return]. */
export type ExtensionEventMap = { [E in NotifyEvent as E["type"]]: [E, void] } & {
  tool_call: [ToolCallEvent, ToolCallEventResult];
  tool_result: [ToolResultEvent, ToolResultEventResult];
  input: [InputEvent, InputEventResult];
  context: [ContextEvent, ContextEventResult];
};
export type ExtensionEventName = keyof ExtensionEventMap;

export type ExtensionHandler<E, R> = (event: E, ctx: ExtensionContext) => Promise<R | void> | R | void;
/** A handler as stored: events and results are checked where they are produced and consumed. */
export type AnyHandler = (event: object, ctx: ExtensionContext) => unknown;

export interface EventBus {
  emit(channel: string, data?: unknown): void;
  on(channel: string, handler: (data: unknown) => void): () => void;
}

export interface ExecResult { stdout: string; stderr: string; code: number; killed: boolean }
export interface ExecOptions { signal?: AbortSignal; timeout?: number; cwd?: string }

/** The object an extension's default-export factory receives. */
export interface ExtensionAPI {
  on<K extends ExtensionEventName>(event: K, handler: ExtensionHandler<ExtensionEventMap[K][0], ExtensionEventMap[K][1]>): () => void;
  /** Events this host never fires (provider, TUI, tree…) are accepted and stay silent. */
  on(event: string, handler: AnyHandler): () => void;
  registerTool<TParams extends TSchema, TDetails = unknown>(tool: ToolDefinition<TParams, TDetails>): void;
  registerCommand(name: string, options: CommandOptions): void;
  registerShortcut(shortcut: string, options: { description?: string; handler: (ctx: ExtensionContext) => unknown }): void;
  registerFlag(name: string, options: { description?: string; type: "boolean" | "string"; default?: boolean | string }): void;
  getFlag(name: string): boolean | string | undefined;
  registerMessageRenderer(customType: string, renderer: unknown): void;
  registerEntryRenderer(customType: string, renderer: unknown): void;
  registerMarkdownTransformer(transformer: unknown): void;
  sendMessage(message: CustomMessageInput, options?: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" }): void;
  sendUserMessage(content: string | Content, options?: { deliverAs?: "steer" | "followUp" }): void;
  appendEntry(customType: string, data?: unknown): void;
  setSessionName(name: string): void;
  getSessionName(): string | undefined;
  setLabel(entryId: string, label: string | undefined): void;
  exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult>;
  getActiveTools(): string[];
  getAllTools(): { name: string; description: string; parameters: TSchema; sourceInfo?: SourceInfo }[];
  setActiveTools(toolNames: string[]): void;
  getCommands(): SlashCommand[];
  setModel(model: Model): Promise<boolean>;
  getThinkingLevel(): ThinkingLevel;
  setThinkingLevel(level: ThinkingLevel): void;
  registerProvider(nameOrProvider: unknown, config?: unknown): void;
  unregisterProvider(name: string): void;
  events: EventBus;
}

export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;

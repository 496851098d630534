import { Type, type Static } from "@sinclair/typebox";
import { PermissionMode, ThinkingLevel } from "./protocol/model";
import { TodoPhase } from "./protocol/session";
import { lazySchema, lazyTable, type StaticOf } from "./protocol/lazy-schema";
import { AssistantBlock, ChatItem, StartFailureAction } from "./chat-items";

/**
 * The messages between the extension and the chat webview, declared once; they travel as
 * JSON-RPC notifications and requests (vscode-jsonrpc over postMessage, shared/webview-channel.ts).
 * The extension checks what the webview sends with `checker()` (AJV); the webview checks what it
 * receives with TypeBox's interpreting `Value.Check` (no code generation under its CSP).
 */

export const AgentStatus = lazySchema(() => Type.Union([
  Type.Literal("stopped"),
  Type.Literal("starting"),
  Type.Literal("idle"),
  Type.Literal("running"),
  Type.Literal("crashed"),
]));
export type AgentStatus = StaticOf<typeof AgentStatus>;

export const QueueState = lazySchema(() => Type.Object({ steering: Type.Array(Type.String()), followUp: Type.Array(Type.String()) }));
export type QueueState = StaticOf<typeof QueueState>;

/** The changes of agents waiting for the user's review (the Changes view's count). */
export const ChangesSummary = lazySchema(() => Type.Object({ files: Type.Integer({ minimum: 0 }), added: Type.Integer({ minimum: 0 }), removed: Type.Integer({ minimum: 0 }) }));
export type ChangesSummary = StaticOf<typeof ChangesSummary>;

export const SessionHeader = lazySchema(() => Type.Object({
  model: Type.Optional(Type.String()),
  provider: Type.Optional(Type.String()),
  thinkingLevel: Type.Optional(Type.String()),
  /** The agent's permission mode, for agents that have them. */
  permissionMode: Type.Optional(PermissionMode()),
  /**
   * The OS sandbox of what the agent runs, when the user should see it: full access (no sandbox, by
   * the user's choice), or commands that are not sandboxed here and why. Absent when sandboxed as usual.
   */
  sandbox: Type.Optional(Type.Object({ label: Type.String(), detail: Type.String() })),
  /** How the editor's tools reach the agent, when not through its host-tool protocol: the editor bridge (pi), or not at all. */
  editorTools: Type.Optional(Type.Object({ label: Type.String(), detail: Type.String() })),
  sessionName: Type.Optional(Type.String()),
  /** The session's first user message (one line): what the header shows while it has no name. */
  firstPrompt: Type.Optional(Type.String()),
  /** setTitle from an extension. */
  title: Type.Optional(Type.String()),
  tokens: Type.Optional(Type.Object({ input: Type.Number(), output: Type.Number(), cacheRead: Type.Number(), cacheWrite: Type.Number() })),
  cost: Type.Optional(Type.Number()),
  context: Type.Optional(
    Type.Object({ tokens: Type.Union([Type.Number(), Type.Null()]), window: Type.Number(), percent: Type.Union([Type.Number(), Type.Null()]) }),
  ),
}));
export type SessionHeader = StaticOf<typeof SessionHeader>;

export const SlashCommandInfo = lazySchema(() => Type.Object({ name: Type.String(), description: Type.Optional(Type.String()), source: Type.String() }));
export type SlashCommandInfo = StaticOf<typeof SlashCommandInfo>;

export const Widget = lazySchema(() => Type.Object({ key: Type.String(), lines: Type.Array(Type.String()), placement: Type.Union([Type.Literal("above"), Type.Literal("below")]) }));
export type Widget = StaticOf<typeof Widget>;

/** Context attached to a message: `@file`, `@file#L10-20`, `@folder/`, `@selection`, `@problems`. */
export const attachmentLimits = { images: 10, imageBytes: 5 * 1024 * 1024, mentions: 50, mentionPath: 4096 } as const;
export const MentionKind = lazySchema(() => Type.Union([Type.Literal("file"), Type.Literal("folder"), Type.Literal("selection"), Type.Literal("problems")]));
export const Mention = lazySchema(() => Type.Object({
  kind: MentionKind(),
  /** Workspace-relative (or absolute) path of a file or folder. */
  path: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  /** 1-based, inclusive. */
  lines: Type.Optional(Type.Object({ start: Type.Integer({ minimum: 1 }), end: Type.Integer({ minimum: 1 }) })),
}));
export type Mention = StaticOf<typeof Mention>;
export const ImageMimeType = lazySchema(() => Type.Union([Type.Literal("image/png"), Type.Literal("image/jpeg"), Type.Literal("image/gif"), Type.Literal("image/webp")]));
export const ImageAttachment = lazySchema(() => Type.Object({
  name: Type.String({ maxLength: 1024 }),
  mimeType: ImageMimeType(),
  /** base64 of at most attachmentLimits.imageBytes bytes. */
  data: Type.String({ minLength: 1, maxLength: Math.ceil(attachmentLimits.imageBytes / 3) * 4 }),
}));
export type ImageAttachment = StaticOf<typeof ImageAttachment>;
export const MentionCandidate = lazySchema(() => Type.Object({ kind: Type.Union([Type.Literal("file"), Type.Literal("folder")]), path: Type.String() }));
export type MentionCandidate = StaticOf<typeof MentionCandidate>;
/** What a path names in the workspace. */
export const PathKind = lazySchema(() => Type.Union([Type.Literal("file"), Type.Literal("folder"), Type.Literal("none")]));
export type PathKind = StaticOf<typeof PathKind>;

/** A model the agent can switch to (get_available_models), for the header's model picker. */
export const ModelChoice = lazySchema(() => Type.Object({ provider: Type.String(), id: Type.String(), name: Type.Optional(Type.String()), contextWindow: Type.Optional(Type.Number()) }));
export type ModelChoice = StaticOf<typeof ModelChoice>;
export const ModelChoices = lazySchema(() => Type.Object({ models: Type.Array(ModelChoice()), current: Type.Optional(Type.Object({ provider: Type.String(), id: Type.String() })) }));
export type ModelChoices = StaticOf<typeof ModelChoices>;
export const ThinkingLevelChoices = lazySchema(() => Type.Object({ levels: Type.Array(ThinkingLevel()), current: Type.Optional(ThinkingLevel()) }));
export type ThinkingLevelChoices = StaticOf<typeof ThinkingLevelChoices>;

/** The chat header's sessions menu: each runs the extension's command of that name for this chat's session. */
export const SessionCommand = lazySchema(() => Type.Union([
  Type.Literal("newSession"),
  Type.Literal("resumeSession"),
  Type.Literal("forkFromMessage"),
  Type.Literal("rewind"),
  Type.Literal("newSessionInTab"),
  Type.Literal("openInTerminal"),
  Type.Literal("exportHtml"),
]));
export type SessionCommand = StaticOf<typeof SessionCommand>;

export const toWebviewSchemas = lazyTable({
  /** The agent's run status; `waiting` while one of its questions waits for the user (as the Sessions list says). */
  status: () => Type.Object({ type: Type.Literal("status"), status: AgentStatus(), waiting: Type.Optional(Type.Boolean()), startFailed: Type.Optional(Type.Boolean()), detail: Type.Optional(Type.String()) }),
  /** `now` is the extension's clock (Date.now()), so the webview can place dialog deadlines. */
  /** `older`: entries before these, sent when the webview asks for them (`olderHistory`); none when absent. */
  reset: () => Type.Object({ type: Type.Literal("reset"), items: Type.Array(ChatItem()), now: Type.Number(), older: Type.Optional(Type.Integer({ minimum: 0 })) }),
  /**
   * Older entries of the conversation the last reset began (a long one comes in parts, newest first, as the
   * webview asks): they go before those shown. `older`: how many are left before them.
   */
  history: () => Type.Object({ type: Type.Literal("history"), items: Type.Array(ChatItem()), older: Type.Integer({ minimum: 0 }) }),
  /** Adds an item, or replaces the one with the same key. */
  /** A new item goes at the end, or right after the item `after` names (a question beside the tool that asks it). */
  upsert: () => Type.Object({ type: Type.Literal("upsert"), item: ChatItem(), now: Type.Number(), after: Type.Optional(Type.String()) }),
  remove: () => Type.Object({ type: Type.Literal("remove"), key: Type.String() }),
  /** Streams text into block `block` of an assistant item (created when missing). */
  append: () =>
    Type.Object({
      type: Type.Literal("append"),
      key: Type.String(),
      block: Type.Integer({ minimum: 0 }),
      blockType: AssistantBlock().properties.type,
      text: Type.String(),
    }),
  /** Live output of a tool or bash item: appended, or replacing what was there. */
  output: () => Type.Object({ type: Type.Literal("output"), key: Type.String(), text: Type.String(), replace: Type.Boolean() }),
  setInput: () => Type.Object({ type: Type.Literal("setInput"), text: Type.String(), append: Type.Optional(Type.Boolean()) }),
  /** `unconfirmed`: what was sent to an agent that reports no queue (oh-my-pi), until it takes it; not editable. */
  queue: () => Type.Object({ type: Type.Literal("queue"), queue: QueueState(), unconfirmed: Type.Optional(Type.Boolean()) }),
  header: () => Type.Object({ type: Type.Literal("header"), header: SessionHeader() }),
  commands: () => Type.Object({ type: Type.Literal("commands"), commands: Type.Array(SlashCommandInfo()) }),
  /** A built-in slash command (/model, /thinking, /mode) opens one of the chat's own pickers. */
  openPicker: () => Type.Object({ type: Type.Literal("openPicker"), picker: Type.Union([Type.Literal("model"), Type.Literal("thinking"), Type.Literal("mode")]) }),
  widgets: () => Type.Object({ type: Type.Literal("widgets"), widgets: Type.Array(Widget()) }),
  /**
   * The session's plan (seed 001's todo phases); empty for agents without one. `awaitingApproval`:
   * the agent in plan mode has answered and waits for the user's decision (Approve plan, Keep planning).
   */
  plan: () => Type.Object({ type: Type.Literal("plan"), phases: Type.Array(TodoPhase()), awaitingApproval: Type.Optional(Type.Boolean()) }),
  /** What waits for review (shown above the message box while there is something). */
  changes: () => Type.Object({ type: Type.Literal("changes"), summary: ChangesSummary() }),
  focus: () => Type.Object({ type: Type.Literal("focus") }),
  /** Files, folders, ranges or images to attach to the message being written (chips). */
  addAttachments: () => Type.Object({ type: Type.Literal("addAttachments"), mentions: Type.Array(Mention()), images: Type.Optional(Type.Array(ImageAttachment())) }),
  /** Collapse all (false) or expand all (true) tool cards. */
  toolCards: () => Type.Object({ type: Type.Literal("toolCards"), open: Type.Boolean() }),
});
export const ToWebview = lazySchema(() => Type.Union(Object.values(toWebviewSchemas)));
export type ToWebview = StaticOf<typeof ToWebview>;

const Text = lazySchema(() => Type.String({ minLength: 1, maxLength: 1_000_000 }));
export const DialogAnswerMessage = lazySchema(() => Type.Union([
  Type.Object({ value: Type.String({ maxLength: 1_000_000 }) }),
  Type.Object({ confirmed: Type.Boolean() }),
  Type.Object({ cancelled: Type.Literal(true) }),
]));

export const fromWebviewSchemas = lazyTable({
  ready: () => Type.Object({ type: Type.Literal("ready") }),
  /** The next older entries of a long conversation (the user scrolled near the oldest shown), or `all` of them (find searches them). */
  olderHistory: () => Type.Object({ type: Type.Literal("olderHistory"), all: Type.Optional(Type.Boolean()) }),
  /** The user clicked or typed in the chat (once per focus): its session is the one the user works with. */
  focused: () => Type.Object({ type: Type.Literal("focused") }),
  /** While the agent runs, `mode` says how the message is queued (default: steer). */
  prompt: () =>
    Type.Object({
      type: Type.Literal("prompt"),
      text: Text(),
      mode: Type.Optional(Type.Union([Type.Literal("steer"), Type.Literal("followUp")])),
      /** The `@` mentions of the text, resolved by the extension when the message is sent. */
      mentions: Type.Optional(Type.Array(Mention(), { maxItems: attachmentLimits.mentions })),
      images: Type.Optional(Type.Array(ImageAttachment(), { maxItems: attachmentLimits.images })),
    }),
  /** `!command` (`!!` keeps the output out of the model's context). */
  bash: () => Type.Object({ type: Type.Literal("bash"), command: Text(), excludeFromContext: Type.Boolean() }),
  abort: () => Type.Object({ type: Type.Literal("abort") }),
  dialogAnswer: () => Type.Object({ type: Type.Literal("dialogAnswer"), id: Type.String(), answer: DialogAnswerMessage() }),
  /** Replace the agent's queue with these messages (clear_queue, then queue each again). */
  queueEdit: () => Type.Object({ type: Type.Literal("queueEdit"), queue: QueueState() }),
  /** Escape: clear the queue and put its messages back into the input box. */
  queueRestore: () => Type.Object({ type: Type.Literal("queueRestore") }),
  /** A task of the plan marked done (or not done again) in the chat. */
  /** The changes line's buttons. */
  changes: () => Type.Object({ type: Type.Literal("changes"), action: Type.Union([Type.Literal("review"), Type.Literal("keepAll"), Type.Literal("undoAll")]) }),
  planToggle: () => Type.Object({ type: Type.Literal("planToggle"), phaseId: Type.String(), taskId: Type.String() }),
  /** The plan's buttons in the chat: Approve plan, Keep planning, or edit it in the Plan view. */
  planAction: () => Type.Object({ type: Type.Literal("planAction"), action: Type.Union([Type.Literal("approve"), Type.Literal("keepPlanning"), Type.Literal("edit")]) }),
  /** A button of the failed start's entry in the chat. */
  startFailureAction: () => Type.Object({ type: Type.Literal("startFailureAction"), action: StartFailureAction() }),
  openLink: () => Type.Object({ type: Type.Literal("openLink"), href: Type.String({ maxLength: 8192 }) }),
  openDiff: () => Type.Object({ type: Type.Literal("openDiff"), key: Type.String() }),
  /** "Rewind…" on the user message with this item key (files, conversation or both). */
  rewind: () => Type.Object({ type: Type.Literal("rewind"), key: Type.String() }),
  openFile: () => Type.Object({ type: Type.Literal("openFile"), path: Type.String({ minLength: 1, maxLength: 4096 }), line: Type.Optional(Type.Integer({ minimum: 1 })) }),
  copy: () => Type.Object({ type: Type.Literal("copy"), text: Type.String({ maxLength: 10_000_000 }) }),
  requestCommands: () => Type.Object({ type: Type.Literal("requestCommands") }),
  /** Files or folders dropped on the box (Shift+drag from the explorer): added as attachments. */
  dropUris: () => Type.Object({ type: Type.Literal("dropUris"), uris: Type.Array(Type.String({ maxLength: 8192 }), { maxItems: 100 }) }),
  setModel: () => Type.Object({ type: Type.Literal("setModel"), provider: Type.String({ minLength: 1, maxLength: 1024 }), modelId: Type.String({ minLength: 1, maxLength: 1024 }) }),
  setThinkingLevel: () => Type.Object({ type: Type.Literal("setThinkingLevel"), level: ThinkingLevel() }),
  /** An entry of the header's sessions menu. */
  sessionCommand: () => Type.Object({ type: Type.Literal("sessionCommand"), command: SessionCommand() }),
  /** The header's permission-mode picker: the mode the user picked for this chat's session. */
  setPermissionMode: () => Type.Object({ type: Type.Literal("setPermissionMode"), mode: PermissionMode() }),
  /** A Content-Security-Policy violation inside the webview: logged (and counted by tests). */
  cspViolation: () => Type.Object({ type: Type.Literal("cspViolation"), directive: Type.String(), blocked: Type.String(), sample: Type.Optional(Type.String()) }),
});
export const FromWebview = lazySchema(() => Type.Union(Object.values(fromWebviewSchemas)));
export type FromWebview = StaticOf<typeof FromWebview>;

/** What the webview asks and the extension answers (JSON-RPC requests): params and result of each. */
export const webviewRequestSchemas = lazyTable({
  /** `@` typed in the box: workspace files and folders matching `query`. */
  mentions: () => ({ params: Type.Object({ query: Type.String({ maxLength: 1024 }) }), result: Type.Array(MentionCandidate()) }),
  /** The box's `@` paths: what each names ("none": nothing there), so that a chip shows only for a file or folder that exists. */
  mentionKinds: () => ({ params: Type.Object({ paths: Type.Array(Type.String({ maxLength: attachmentLimits.mentionPath }), { maxItems: attachmentLimits.mentions }) }), result: Type.Array(PathKind()) }),
  /** The header's model picker opens: the agent's models and the current one. */
  models: () => ({ params: Type.Object({}), result: ModelChoices() }),
  /** The thinking-level picker opens: the levels the model supports and the current one. */
  thinkingLevels: () => ({ params: Type.Object({}), result: ThinkingLevelChoices() }),
});
export type WebviewRequestMethod = keyof typeof webviewRequestSchemas;
export type WebviewRequestParams<M extends WebviewRequestMethod> = Static<(typeof webviewRequestSchemas)[M]["params"]>;
export type WebviewRequestResult<M extends WebviewRequestMethod> = Static<(typeof webviewRequestSchemas)[M]["result"]>;

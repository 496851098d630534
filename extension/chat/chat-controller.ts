import * as vscode from "vscode";
import type { DialogRequest, ImageContent, UiNotice } from "../../shared/protocol";
import type { DialogHandler } from "../../shared/rpc";
import type { FromWebview, ToWebview } from "../../shared/webview-protocol";
import { errorText } from "../../shared/error-text";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import { settings } from "../settings";
import { ChatDialogs } from "./chat-dialogs";
import { ChatEvents } from "./chat-events";
import { ChatConversation } from "./chat-conversation";
import { AboveBox } from "./above-box";
import { parseBuiltin, type BuiltinCall } from "./builtin-commands";
import { runBuiltin } from "./chat-builtins";
import { ChatLinks } from "./chat-links";
import { changeAskedAbout, openToolDiff } from "./tool-diffs";
import { SafeguardsEntry } from "./safeguards-note";
import { ChatQueue } from "./chat-queue";
import { HeaderPickers } from "./header-pickers";
import { ChatContext } from "./context/chat-context";
import type { WorkspaceFiles } from "./context/workspace-files";
import type { ChatSurface } from "./chat-surface";
import { raceDialogs } from "./dialog-race";
import type { ChatChanges, ChatPlan, ChatSessionActions } from "./session-actions";
import { ChatHeaderState } from "./chat-header-state";
import type { Transcript } from "./transcript";
import { TranscriptFeed } from "./transcript-feed";
import { StartFailureEntry } from "./start-failure";
import { followAgent, quietly } from "./header-follow";

/** What a chat is given besides its agent and its surface. */
export interface ChatParts {
  log?: vscode.LogOutputChannel;
  /** Shared by every session's chat (it registers a document scheme); owned here when absent. */
  links?: ChatLinks;
  /** The window's workspace file list (`@` completion, folder mentions), shared by every chat; owned here when absent. */
  files?: WorkspaceFiles;
  /** The header's menu, rewind and mode, for this chat's session. */
  actions?: ChatSessionActions;
  /** The session's plan, shown above the message box. */
  plan?: ChatPlan;
  /** The changes waiting for review, shown above the message box. */
  changes?: ChatChanges;
}

/**
 * Connects the chat view to the agent: prompts, steering, queue edits, dialog answers and aborts
 * go out; events come back as transcript, queue and header changes.
 */
export class ChatController implements vscode.Disposable {
  readonly transcript: Transcript;
  readonly dialogs: ChatDialogs;
  /** The header and footer (model, name, usage), widgets and slash commands. */
  readonly header: ChatHeaderState;
  /** `@` mentions, attachments and the context they add to a message. */
  readonly context: ChatContext;
  /** CSP violations the webview reported (there should be none). */
  readonly cspViolations: string[] = [];
  private readonly events: ChatEvents;
  /** The agent's conversation in the transcript, and the session's first prompt. */
  private readonly conversation: ChatConversation;
  private readonly links: ChatLinks;
  /** The transcript on its way to the webview. */
  private readonly feed: TranscriptFeed;
  /** Prompts, queue edits and Abort: what the agent queues. */
  readonly queue: ChatQueue;
  /** A question of this session waits for the user (the Sessions list says so too). */
  private waiting = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The session's first prompt (its title while it has no name) changed. */
  readonly onDidChangeFirstPrompt: vscode.Event<void>;

  private readonly log: vscode.LogOutputChannel;
  private readonly actions: ChatSessionActions | undefined;
  private readonly changes: ChatChanges | undefined;
  /** What the chat says of an agent without our policy (nothing for the bundled host). */
  private readonly safeguards: SafeguardsEntry;
  private readonly pickers: HeaderPickers;
  /** The plan and the changes waiting for review, above the message box. */
  private readonly aboveBox: AboveBox;
  /** A failed start, shown in place until a start succeeds. */
  private readonly startFailure: StartFailureEntry;

  constructor(
    private readonly supervisor: AgentSupervisor,
    private readonly view: ChatSurface,
    parts: ChatParts = {},
  ) {
    const { links } = parts;
    const log = (this.log = parts.log ?? view.log);
    this.actions = parts.actions;
    this.changes = parts.changes;
    const post = (message: ToWebview) => view.post(message);
    this.feed = new TranscriptFeed(view, post);
    this.transcript = this.feed.transcript;
    this.safeguards = new SafeguardsEntry(this.transcript);
    this.header = new ChatHeaderState(post, (title) => view.setDescription?.(title ?? ""));
    this.events = new ChatEvents(this.transcript, { header: (change) => this.header.change(change) });
    this.dialogs = new ChatDialogs(this.transcript, () => view.reveal(), this.events);
    this.queue = new ChatQueue(supervisor, post, (error) => this.showError(error));
    this.pickers = new HeaderPickers(supervisor, this.header, parts.actions, (error) => this.showError(error));
    this.subscriptions.push(this.queue);
    this.links = links ?? new ChatLinks(log);
    this.context = new ChatContext(post, log, parts.files, parts.changes);
    this.subscriptions.push(this.context);
    this.subscriptions.push(
      view.onMessage((message) => void this.handle(message)),
      view.answerRequests({
        mentions: ({ query }) => this.context.candidates(query),
        mentionKinds: ({ paths }) => this.context.kinds(paths),
        models: () => this.pickers.models(),
        thinkingLevels: () => this.pickers.thinkingLevels(),
      }),
      // The run status and the queue are the supervisor's (AgentState): the chat only shows them.
      supervisor.onDidChangeStatus(() => this.postStatus()),
      // An agent without our policy (pi, omp): what is and is not guarded, said once in the chat.
      supervisor.onReady(({ capabilities }) => this.safeguards.agentReady({ capabilities, sandbox: supervisor.sandboxNote, sandboxMode: settings.sandboxMode, editorToolsVia: supervisor.agent.editorToolsVia, acpAgent: supervisor.acp?.name })),
    );
    if (!links) this.subscriptions.push(this.links);
    this.aboveBox = new AboveBox(post, parts.plan, parts.changes, parts.actions);
    this.subscriptions.push(this.aboveBox);
    this.conversation = new ChatConversation(supervisor, { transcript: this.transcript, events: this.events, header: this.header, safeguards: this.safeguards, log });
    this.onDidChangeFirstPrompt = this.conversation.onDidChangeFirstPrompt;
    this.subscriptions.push(this.conversation, (this.startFailure = new StartFailureEntry(supervisor, this.transcript, (error) => this.showError(error))));
    supervisor.onAttach((client, lifetime) => lifetime.add(client.onSettled(() => this.queue.settled())));
    this.subscriptions.push(followAgent(this.header, supervisor, log));
  }

  post(message: ToWebview): void {
    this.view.post(message);
  }

  /** For a question about a file change, what shows that change beside it (tool-diffs.ts). */
  changeShownBy(request: DialogRequest): (() => Promise<unknown>) | undefined {
    return changeAskedAbout(request, this.transcript, this.links);
  }

  /** Wraps the native dialog handler: each dialog shows natively and as a card, first answer wins; the tool asking does not count the wait. */
  withInlineDialogs(native: DialogHandler): DialogHandler {
    return this.dialogs.aboutTools(raceDialogs(native, this.dialogs, () => settings.dialogSurface));
  }

  /** Notices for the chat: set_editor_text, setWidget, setTitle. False when not the chat's. */
  showNotice(notice: UiNotice): boolean {
    if (notice.method === "set_editor_text") {
      this.view.post({ type: "setInput", text: notice.text });
      return true;
    }
    return this.header.notice(notice);
  }

  private async handle(message: FromWebview): Promise<void> {
    switch (message.type) {
      case "ready":
        this.feed.reset();
        this.postStatus();
        for (const m of this.header.messages()) this.view.post(m);
        this.queue.show();
        this.aboveBox.show();
        void this.supervisor.ensureStarted().catch((error: unknown) => this.showError(error));
        this.context.viewReady();
        return;
      case "olderHistory":
        return this.feed.older(message.all ?? false);
      case "prompt": {
        const builtin = message.mentions || message.images ? undefined : parseBuiltin(message.text, this.header.agentCommands);
        if (builtin) return this.runBuiltin(builtin);
        if (!message.mentions && !message.images) return this.queue.prompt(message.text, message.mode);
        return this.context.compose(message.text, message.mentions, message.images).then(
          (composed) => this.queue.prompt(composed.message, message.mode, composed.images),
          (error: unknown) => this.showError(error),
        );
      }
      case "dropUris":
        return this.context.drop(message.uris);
      case "bash":
        return this.bash(message.command, message.excludeFromContext);
      case "abort":
        return this.queue.abort();
      case "dialogAnswer":
        this.dialogs.answer(message.id, message.answer);
        return;
      case "queueEdit":
        return this.queue.edit(message.queue);
      case "queueRestore":
        return this.queue.restore();
      case "startFailureAction":
        return this.startFailure.act(message.action);
      case "openLink":
        return this.links.openLink(message.href).catch((error: unknown) => this.showError(error));
      case "openFile":
        return this.links.openFile(message.path, message.line).catch((error: unknown) => this.showError(error));
      case "openDiff": {
        const item = this.transcript.get(message.key, "tool");
        if (item) await openToolDiff(item.name, item.args, this.links, this.changes).catch((error: unknown) => this.showError(error));
        return;
      }
      case "rewind": {
        // The message's place among the user messages, from the end: the same place in get_fork_messages.
        const users = this.transcript.snapshot().filter((i) => i.kind === "user");
        const at = users.findIndex((i) => i.key === message.key);
        const item = users[at];
        if (item?.kind === "user") await this.actions?.rewind({ text: item.text, fromEnd: users.length - 1 - at }).catch((error: unknown) => this.showError(error));
        return;
      }
      case "copy":
        await vscode.env.clipboard.writeText(message.text);
        return;
      case "requestCommands": {
        const client = this.supervisor.client;
        if (client) quietly(this.header.refreshCommands(client), this.log);
        return;
      }
      case "setModel":
      case "setThinkingLevel":
      case "setPermissionMode":
        return this.pickers.pick(message);
      case "cspViolation":
        this.cspViolations.push(`${message.directive}: ${message.blocked}`);
        this.log.warn(`The chat view blocked ${message.blocked} (${message.directive})${message.sample ? `: ${message.sample}` : ""}`);
        return;
      case "changes":
      case "planToggle":
      case "planAction":
        return this.aboveBox.handle(message).catch((error: unknown) => this.showError(error));
      case "sessionCommand":
        return void this.actions?.run(message.command).catch((error: unknown) => this.showError(error));
      case "focused":
        return; // the surface's (it makes the session the active one)
    }
  }

  /** A built-in slash command (/new, /model, /mode plan…): run here for this chat's session, never sent to the model. */
  private async runBuiltin(call: BuiltinCall): Promise<void> {
    try {
      await runBuiltin(call, {
        supervisor: this.supervisor,
        actions: this.actions,
        post: (message) => this.view.post(message),
        notice: (text) => this.transcript.add({ kind: "notice", text }),
      });
      const client = this.supervisor.client;
      if (client) await this.header.refreshState(client);
    } catch (error) {
      this.showError(error);
    }
  }

  /** Replaces the transcript with the current session's messages. */
  loadSession(): Promise<void> {
    return this.conversation.loadSession();
  }

  /** Sends a message as if typed in the chat (a prompt, or queued while the agent runs). */
  prompt(text: string, mode: "steer" | "followUp" = "steer", images?: ImageContent[]): Promise<void> {
    return this.queue.prompt(text, mode, images);
  }

  async bash(command: string, excludeFromContext: boolean): Promise<void> {
    let key: string | undefined;
    try {
      const client = await this.supervisor.ensureStarted();
      key = this.events.bashStarted(command, excludeFromContext);
      const result = await client.request("bash", { command, excludeFromContext });
      this.events.bashFinished(key, result);
    } catch (error) {
      if (key) this.events.bashFinished(key, undefined, errorText(error));
      else this.showError(error);
    }
  }

  /** The session's activity as the Sessions list shows it: whether a question waits for the user. */
  setWaiting(waiting: boolean): void {
    if (waiting === this.waiting) return;
    this.waiting = waiting;
    this.postStatus();
  }

  private postStatus(): void {
    this.view.post({ type: "status", status: this.supervisor.status, ...(this.waiting ? { waiting: true } : {}), ...(this.supervisor.agent.startFailed ? { startFailed: true } : {}) });
  }

  get firstPrompt(): string | undefined {
    return this.header.firstPrompt;
  }

  private showError(error: unknown): void {
    if (this.startFailure.shows(error)) return; // said once, in its entry
    this.transcript.add({ kind: "error", text: errorText(error) });
  }

  dispose(): void {
    this.events.dispose();
    this.feed.dispose();
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
  }
}

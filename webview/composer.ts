import type { FromWebview, ImageAttachment, Mention, MentionCandidate, PathKind, SlashCommandInfo } from "../shared/webview-protocol";
import { ComposerAttachments } from "./composer-attachments";
import { CompletionList } from "./completion-list";
import { composerAction, composerHint, type ComposerAction } from "./keys";
import { mentionQueryAt, mentionToken, replaceMentionQuery } from "./mentions";
import { acceptCommand, matchCommands, slashQuery } from "./slash";

type TextArea = HTMLElement & { value: string; wrappedElement?: HTMLTextAreaElement };

const specialMentions = [
  { name: "selection", description: "The text selected in the editor", icon: "selection" },
  { name: "problems", description: "Errors and warnings in the workspace", icon: "warning" },
] as const;

/**
 * The message box: Enter sends, or steers while the agent runs; Alt/Ctrl+Enter queues a
 * follow-up; `/` completes the agent's commands; `@` completes files, folders, `@selection` and
 * `@problems` (shown as chips with the pasted images); `!cmd` runs a shell command.
 */
export class Composer {
  private running = false;
  private queueLength = 0;
  /** Whether the agent has permission modes (the hint offers Alt+M only then). */
  private modesAvailable = true;
  private commands: SlashCommandInfo[] = [];
  /** Slash commands or `@` mentions for the word being typed. */
  private readonly list: CompletionList;
  private commandsRequested = false;
  private mention: { start: number; query: string; id: number; results: MentionCandidate[] } | undefined;
  private mentionId = 0;
  private readonly attachments: ComposerAttachments;

  constructor(
    private readonly prompt: TextArea,
    private readonly sendButton: HTMLElement,
    private readonly abortButton: HTMLElement & { disabled: boolean },
    private readonly hint: HTMLElement,
    completions: HTMLElement,
    private readonly post: (message: FromWebview) => void,
    /** `@` completion: the extension's workspace files and folders for a query. */
    private readonly searchMentions: (query: string) => Promise<MentionCandidate[]>,
    private readonly onDraft: (text: string) => void,
    private readonly onRestoreQueue: () => void,
    chips: HTMLElement,
    dropTarget: HTMLElement,
    /** The mode key: the next permission mode. */
    private readonly onCycleMode: () => void = () => undefined,
    /** What `@` paths name in the workspace (a chip shows only for a file or folder that is there). */
    mentionKinds: (paths: string[]) => Promise<PathKind[]> = async (paths) => paths.map(() => "file" as const),
  ) {
    this.list = new CompletionList(completions, prompt);
    this.attachments = new ComposerAttachments(chips, prompt, dropTarget, {
      text: () => this.prompt.value,
      // Unfocused, no word is being typed.
      caret: () => (document.activeElement === this.prompt ? this.caret() : -1),
      kinds: mentionKinds,
      setText: (text) => this.setText(text),
      post,
    });
    sendButton.addEventListener("click", () => this.submit(this.running ? "steer" : "send"));
    abortButton.addEventListener("click", () => post({ type: "abort" }));
    prompt.addEventListener("keydown", (event: KeyboardEvent) => this.keydown(event));
    prompt.addEventListener("input", () => this.changed());
    // Close when focus moves elsewhere in the view, not when the whole view loses focus for a moment.
    prompt.addEventListener("blur", () => setTimeout(() => {
      if (document.activeElement !== this.prompt) {
        this.closeCompletions();
        this.attachments.refresh();
      }
    }, 150));
    this.render();
  }

  get text(): string {
    return this.prompt.value;
  }

  setText(text: string, append = false, focus = true): void {
    const current = this.prompt.value;
    this.setValue(append && current.trim() ? `${current.replace(/\s+$/, "")}\n\n${text}` : text);
    this.onDraft(this.prompt.value);
    this.attachments.refresh();
    if (!focus) return;
    this.focus();
    // A message put back (rewind, fork, an extension) is selected, so that typing does not run on
    // after it: type to replace it, or press End (→) to edit it. Appended text leaves the caret at the end.
    const end = this.prompt.value.length;
    this.prompt.wrappedElement?.setSelectionRange(append ? end : 0, end);
  }

  /** Mentions and images from the extension ("Add to Pi Chat", files dropped from the explorer). */
  addAttachments(mentions: Mention[], images: ImageAttachment[] = []): void {
    this.attachments.add(mentions, images);
    this.focus();
  }

  /** Workspace files and folders for the `@` word being typed (stale answers are ignored). */
  private setMentionResults(id: number, items: MentionCandidate[]): void {
    if (!this.mention || this.mention.id !== id) return;
    this.mention.results = items;
    this.showMentionItems();
  }

  focus(): void {
    this.prompt.focus();
  }

  setRunning(running: boolean): void {
    this.running = running;
    this.render();
  }

  setModesAvailable(available: boolean): void {
    if (available === this.modesAvailable) return;
    this.modesAvailable = available;
    this.render();
  }

  setQueueLength(length: number): void {
    this.queueLength = length;
    this.render();
  }

  setCommands(commands: SlashCommandInfo[]): void {
    this.commands = commands;
    if (this.list.open || slashQuery(this.prompt.value, this.caret()) !== undefined) this.changed();
  }

  private render(): void {
    this.abortButton.disabled = !this.running;
    this.abortButton.hidden = !this.running;
    this.sendButton.textContent = this.running ? "Steer" : "Send";
    this.sendButton.setAttribute("aria-label", this.running ? "Steer the agent with this message" : "Send message");
    const hint = composerHint(this.running, this.queueLength, this.modesAvailable);
    this.hint.textContent = hint.text;
    this.hint.title = hint.title;
  }

  private keydown(event: KeyboardEvent): void {
    if (event.key === "Backspace" && !event.isComposing && this.caret() === 0 && this.prompt.wrappedElement?.selectionEnd === 0) {
      if (this.attachments.removeLast()) event.preventDefault();
      return;
    }
    const action = composerAction(event, { running: this.running, completionOpen: this.list.open, queueLength: this.queueLength });
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    this.act(action);
  }

  private act(action: ComposerAction): void {
    switch (action) {
      case "send":
      case "steer":
      case "followUp":
        return this.submit(action);
      case "restoreQueue":
        return this.onRestoreQueue();
      case "completeNext":
      case "completePrevious":
        return this.list.move(action === "completeNext" ? 1 : -1);
      case "completeAccept": {
        const item = this.list.selectedItem;
        // "/new" typed whole: Enter runs it (rather than completing it to itself).
        if (item?.data.command !== undefined && this.prompt.value.trim() === item.label && this.caret() === this.prompt.value.length) return this.submit("send");
        return item ? item.accept() : this.closeCompletions();
      }
      case "completeClose":
        return this.closeCompletions();
      case "cycleMode":
        return this.onCycleMode();
    }
  }

  private submit(mode: "send" | "steer" | "followUp"): void {
    let text = this.prompt.value.trim();
    if (!text && this.attachments.imageCount === 0) return;
    const bang = /^(!!?)(.*)$/s.exec(text);
    if (bang && !this.running && bang[2].trim()) {
      this.post({ type: "bash", command: bang[2].trim(), excludeFromContext: bang[1] === "!!" });
    } else {
      text ||= "(see the attached image)";
      this.post({ type: "prompt", text, ...(mode === "send" ? {} : { mode }), ...this.attachments.take(text) });
    }
    this.setValue("");
    this.onDraft("");
    this.attachments.refresh();
    this.closeCompletions();
  }

  private setValue(text: string, caret = text.length): void {
    this.prompt.value = text;
    const inner = this.prompt.wrappedElement;
    if (inner) {
      // Set now, not at the element's next render, so that the caret can be placed.
      inner.value = text;
      inner.setSelectionRange(caret, caret);
    }
  }

  private changed(): void {
    this.onDraft(this.prompt.value);
    this.attachments.refresh();
    const query = slashQuery(this.prompt.value, this.caret());
    if (query === undefined) return this.mentionChanged();
    if (!this.commandsRequested) {
      this.commandsRequested = true;
      this.post({ type: "requestCommands" });
    }
    this.list.show(
      matchCommands(query, this.commands).map((command) => ({
        label: `/${command.name}`,
        description: command.description ?? command.source,
        data: { command: command.name },
        accept: () => this.accept(command),
      })),
    );
  }

  private mentionChanged(): void {
    const at = mentionQueryAt(this.prompt.value, this.caret());
    if (!at) {
      this.mention = undefined;
      return this.closeCompletions();
    }
    if (this.mention?.start !== at.start || this.mention.query !== at.query) {
      this.mention = { ...at, id: ++this.mentionId, results: this.mention?.start === at.start ? this.mention.results : [] };
      const id = this.mention.id;
      this.searchMentions(at.query).then(
        (items) => this.setMentionResults(id, items),
        (error: unknown) => console.warn("@ completion failed", error),
      );
    }
    this.showMentionItems();
  }

  private showMentionItems(): void {
    const at = this.mention;
    if (!at) return;
    const q = at.query.toLowerCase();
    const specials = specialMentions
      .filter((s) => s.name.startsWith(q))
      .map((s) => ({ label: `@${s.name}`, description: s.description, icon: s.icon, data: { mention: s.name }, accept: () => this.acceptMention({ kind: s.name }) }));
    const files = at.results.map((c) => ({
      label: `${c.path}${c.kind === "folder" ? "/" : ""}`,
      description: c.kind === "folder" ? "folder" : "",
      icon: c.kind,
      data: { mention: c.path },
      accept: () => this.acceptMention({ kind: c.kind, path: c.path }),
    }));
    this.list.show([...specials, ...files]);
  }

  private acceptMention(mention: Mention): void {
    if (!this.mention) return;
    const next = replaceMentionQuery(this.prompt.value, this.mention.start, this.caret(), mentionToken(mention));
    this.mention = undefined;
    this.setValue(next.text, next.caret);
    this.onDraft(next.text);
    this.attachments.refresh();
    this.closeCompletions();
    this.focus();
  }

  private caret(): number {
    return this.prompt.wrappedElement?.selectionStart ?? this.prompt.value.length;
  }

  private accept(command: SlashCommandInfo): void {
    this.setValue(acceptCommand(this.prompt.value, command.name));
    this.onDraft(this.prompt.value);
    this.closeCompletions();
    this.focus();
  }

  private closeCompletions(): void {
    this.list.close();
    this.commandsRequested = false;
  }
}

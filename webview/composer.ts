import type { FromWebview, SlashCommandInfo } from "../shared/webview-protocol";
import { h } from "./dom";
import { composerAction, composerHint, type ComposerAction } from "./keys";
import { acceptCommand, matchCommands, slashQuery } from "./slash";

type TextArea = HTMLElement & { value: string; wrappedElement?: HTMLTextAreaElement };

/**
 * The message box: Enter sends, or steers while the agent runs; Alt/Ctrl+Enter queues a
 * follow-up; `/` completes the agent's commands; `!cmd` runs a shell command.
 */
export class Composer {
  private running = false;
  private queueLength = 0;
  private commands: SlashCommandInfo[] = [];
  private matches: SlashCommandInfo[] = [];
  private selected = 0;
  private commandsRequested = false;

  constructor(
    private readonly prompt: TextArea,
    private readonly sendButton: HTMLElement,
    private readonly abortButton: HTMLElement & { disabled: boolean },
    private readonly hint: HTMLElement,
    private readonly completions: HTMLElement,
    private readonly post: (message: FromWebview) => void,
    private readonly onDraft: (text: string) => void,
    private readonly onRestoreQueue: () => void,
  ) {
    sendButton.addEventListener("click", () => this.submit(this.running ? "steer" : "send"));
    abortButton.addEventListener("click", () => post({ type: "abort" }));
    prompt.addEventListener("keydown", (event: KeyboardEvent) => this.keydown(event));
    prompt.addEventListener("input", () => this.changed());
    // Close when focus moves elsewhere in the view, not when the whole view loses focus for a moment.
    prompt.addEventListener("blur", () => setTimeout(() => {
      if (document.activeElement !== this.prompt) this.closeCompletions();
    }, 150));
    this.render();
  }

  get text(): string {
    return this.prompt.value;
  }

  setText(text: string, append = false, focus = true): void {
    const current = this.prompt.value;
    this.prompt.value = append && current.trim() ? `${current.replace(/\s+$/, "")}\n\n${text}` : text;
    this.onDraft(this.prompt.value);
    if (focus) this.focus();
  }

  focus(): void {
    this.prompt.focus();
  }

  setRunning(running: boolean): void {
    this.running = running;
    this.render();
  }

  setQueueLength(length: number): void {
    this.queueLength = length;
    this.render();
  }

  setCommands(commands: SlashCommandInfo[]): void {
    this.commands = commands;
    if (this.matches.length > 0 || slashQuery(this.prompt.value, this.caret()) !== undefined) this.changed();
  }

  private render(): void {
    this.abortButton.disabled = !this.running;
    this.abortButton.hidden = !this.running;
    this.sendButton.textContent = this.running ? "Steer" : "Send";
    this.sendButton.setAttribute("aria-label", this.running ? "Steer the agent with this message" : "Send message");
    const hint = composerHint(this.running, this.queueLength);
    this.hint.textContent = hint.text;
    this.hint.title = hint.title;
  }

  private keydown(event: KeyboardEvent): void {
    const action = composerAction(event, { running: this.running, completionOpen: this.matches.length > 0, queueLength: this.queueLength });
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
        this.selected = (this.selected + (action === "completeNext" ? 1 : -1) + this.matches.length) % this.matches.length;
        return this.renderCompletions();
      case "completeAccept":
        return this.accept(this.matches[this.selected]);
      case "completeClose":
        return this.closeCompletions();
    }
  }

  private submit(mode: "send" | "steer" | "followUp"): void {
    const text = this.prompt.value.trim();
    if (!text) return;
    const bang = /^(!!?)(.*)$/s.exec(text);
    if (bang && !this.running && bang[2].trim()) {
      this.post({ type: "bash", command: bang[2].trim(), excludeFromContext: bang[1] === "!!" });
    } else if (mode === "send") {
      this.post({ type: "prompt", text });
    } else {
      this.post({ type: "prompt", text, mode });
    }
    this.prompt.value = "";
    this.onDraft("");
    this.closeCompletions();
  }

  private changed(): void {
    this.onDraft(this.prompt.value);
    const query = slashQuery(this.prompt.value, this.caret());
    if (query === undefined) return this.closeCompletions();
    if (!this.commandsRequested) {
      this.commandsRequested = true;
      this.post({ type: "requestCommands" });
    }
    this.matches = matchCommands(query, this.commands);
    this.selected = Math.min(this.selected, Math.max(0, this.matches.length - 1));
    this.renderCompletions();
  }

  private caret(): number {
    return this.prompt.wrappedElement?.selectionStart ?? this.prompt.value.length;
  }

  private accept(command: SlashCommandInfo | undefined): void {
    if (!command) return this.closeCompletions();
    this.prompt.value = acceptCommand(this.prompt.value, command.name);
    this.onDraft(this.prompt.value);
    this.closeCompletions();
    this.focus();
  }

  private closeCompletions(): void {
    this.matches = [];
    this.selected = 0;
    this.commandsRequested = false;
    this.renderCompletions();
  }

  private renderCompletions(): void {
    this.completions.hidden = this.matches.length === 0;
    this.completions.replaceChildren(
      ...this.matches.map((command, index) => {
        const option = h(
          "div",
          { class: "completion", role: "option", id: `completion-${index}`, "aria-selected": index === this.selected ? "true" : "false", "data-command": command.name },
          h("span", { class: "completion-name" }, `/${command.name}`),
          h("span", { class: "completion-description" }, command.description ?? command.source),
        );
        option.addEventListener("mousedown", (event) => {
          event.preventDefault();
          this.accept(command);
        });
        return option;
      }),
    );
    if (this.matches.length > 0) this.prompt.setAttribute("aria-activedescendant", `completion-${this.selected}`);
    else this.prompt.removeAttribute("aria-activedescendant");
  }
}

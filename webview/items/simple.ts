import type { ChatItem, ChatItemOf, StartFailureAction } from "../../shared/chat-items";
import { h, icon, iconButton } from "../dom";
import { formatTokens } from "../format";
import { renderMarkdown } from "../markdown";
import { article, details, itemHeader, replaceItem, type ItemContext, type ItemView } from "./common";
import { splitUserContext, userMessageBody } from "./user-context";

/** Entries that are re-rendered whole on each change (bash output is appended in place). */
export class SimpleView implements ItemView {
  element: HTMLElement;
  private outputElement: HTMLElement | undefined;

  constructor(
    private item: ChatItem,
    private readonly ctx: ItemContext,
  ) {
    this.element = this.build();
  }

  update(item: ChatItem): void {
    this.item = item;
    this.element = replaceItem(this.element, this.build());
  }

  output(text: string, replace: boolean): void {
    if (this.item.kind !== "bash") return;
    this.item = { ...this.item, output: replace ? text : this.item.output + text };
    if (!this.outputElement) return this.update(this.item);
    this.outputElement.textContent = this.item.output;
    this.outputElement.hidden = false;
    this.outputElement.scrollTop = this.outputElement.scrollHeight;
    this.ctx.changed();
  }

  private build(): HTMLElement {
    const item = this.item;
    this.outputElement = undefined;
    switch (item.kind) {
      case "user": {
        const element = article(item, "Your message");
        const images = item.images ? h("span", { class: "item-note" }, `${item.images} image${item.images === 1 ? "" : "s"}`) : null;
        const rewind = iconButton("discard", "Rewind to this message…", "rewind");
        rewind.addEventListener("click", () => this.ctx.post({ type: "rewind", key: item.key }));
        const copy = iconButton("copy", "Copy message as markdown", "copy-message");
        copy.addEventListener("click", () => this.ctx.post({ type: "copy", text: splitUserContext(item.text)?.text ?? item.text }));
        element.append(itemHeader("account", "You", images, copy, rewind), ...userMessageBody(item.text));
        return element;
      }
      case "bash":
        return this.bash(item);
      case "compaction": {
        const element = article(item, "Compaction summary");
        const summary = h("div", { class: "markdown" }, renderMarkdown(item.summary));
        element.append(details([icon("fold"), h("span", {}, `Context compacted (${formatTokens(item.tokensBefore)} tokens before)`)], false, summary));
        return element;
      }
      case "banner": {
        const element = article(item, item.text);
        element.dataset.tone = item.tone;
        if (item.active) element.dataset.active = "true";
        element.setAttribute("role", item.tone === "error" ? "alert" : "status");
        const iconName = item.active ? "sync" : item.tone === "error" ? "error" : item.tone === "warning" ? "warning" : "info";
        element.append(icon(iconName, item.active ? "codicon-modifier-spin" : ""), h("span", { class: "banner-text" }, item.text));
        return element;
      }
      case "notice": {
        const element = article(item, item.title ?? "Note");
        element.append(itemHeader("info", item.title ?? "Note"), h("div", { class: "text" }, item.text));
        return element;
      }
      case "error": {
        const element = article(item, "Error");
        element.setAttribute("role", "alert");
        element.append(itemHeader("error", "Error"), h("div", { class: "text" }, item.text));
        if (item.actions?.length) this.startFailureActions(element, item.actions);
        return element;
      }
      default:
        return article(item, item.kind);
    }
  }

  /** A failed start's buttons: they wait for the user, so they stay in the Tab order (as an open question's do). */
  private startFailureActions(element: HTMLElement, actions: StartFailureAction[]): void {
    element.dataset.awaitsUser = "true";
    const buttons = actions.map((action, i) => {
      const { label, title } = startFailureButtons[action];
      const button = h("button", { type: "button", class: `dialog-choice${i === 0 ? " primary" : ""}`, "data-action": `start-${action}`, title }, label);
      button.addEventListener("click", () => this.ctx.post({ type: "startFailureAction", action }));
      return button;
    });
    element.append(h("div", { class: "dialog-choices start-failure-actions", role: "group", "aria-label": "The agent did not start" }, ...buttons));
  }

  private bash(item: ChatItemOf<"bash">): HTMLElement {
    const element = article(item, `Shell command ${item.command}`);
    element.dataset.status = item.running ? "running" : item.exitCode === 0 ? "done" : "error";
    if (item.running) element.setAttribute("aria-busy", "true");
    const status = item.running
      ? icon("loading", "codicon-modifier-spin")
      : h("span", { class: "bash-exit" }, item.cancelled ? "cancelled" : `exit ${item.exitCode ?? "?"}`);
    const note = item.excluded ? h("span", { class: "item-note" }, "not sent to the model") : null;
    element.append(itemHeader("terminal", "Shell", note, status));
    element.append(h("div", { class: "bash-command" }, h("span", { class: "prompt-sign", "aria-hidden": "true" }, "$ "), item.command));
    this.outputElement = h("pre", { class: "tool-output terminal", tabindex: 0, "aria-label": "Output" }, item.output);
    this.outputElement.hidden = item.output === "";
    element.append(this.outputElement);
    if (item.truncated) element.append(h("div", { class: "tool-result-note" }, "Output truncated."));
    return element;
  }
}

const startFailureButtons: Record<StartFailureAction, { label: string; title: string }> = {
  retry: { label: "Retry", title: "Start the agent again (Pi: Restart Agent)" },
  showLog: { label: "Show Log", title: "The agent's whole output (Pi: Show Log)" },
  openSettings: { label: "Open Settings", title: "The agent's settings (pi.agent.*)" },
};

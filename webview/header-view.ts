import { permissionModeInfo, type PermissionMode } from "../shared/protocol/model";
import type { AgentStatus, SessionHeader, Widget } from "../shared/webview-protocol";
import { h, icon } from "./dom";
import { formatCost, formatTokens } from "./format";
import { cycleModeKey } from "./keys";

const statusText: Record<AgentStatus, string> = {
  stopped: "Agent stopped",
  starting: "Starting agent…",
  idle: "Ready",
  running: "Working…",
  crashed: "Agent stopped unexpectedly",
};

export interface HeaderParts {
  status: HTMLElement;
  session: HTMLElement;
  model: HTMLElement;
  /** Under the message box: the permission-mode pill. */
  modeSlot: HTMLElement;
  footer: HTMLElement;
  widgetsAbove: HTMLElement;
  widgetsBelow: HTMLElement;
}

/** The header (status, session, model, thinking level), the footer (context, tokens, cost) and widgets. */
export class HeaderView {
  /** Open the model and thinking-level pickers. */
  readonly modelButton: HTMLButtonElement;
  readonly thinkingButton: HTMLButtonElement;
  /** The permission mode (agents that have them), a labelled pill under the message box: opens the mode menu. */
  readonly modeButton: HTMLButtonElement;
  /** The mode the agent last reported. */
  mode: PermissionMode | undefined;
  /** Said when the agent's commands are not sandboxed (full access, or no sandbox here). */
  private readonly sandboxBadge: HTMLElement;
  /** How the editor's tools reach the agent when not through its host-tool protocol (the editor bridge for pi). */
  private readonly editorToolsBadge: HTMLElement;

  constructor(private readonly parts: HeaderParts) {
    // Made once and updated in place, so that focus stays on them across header changes.
    this.modelButton = h("button", { type: "button", id: "model-picker", class: "header-picker", "aria-haspopup": "listbox", "aria-expanded": "false" });
    this.thinkingButton = h("button", { type: "button", id: "thinking-picker", class: "header-picker thinking-level", "aria-haspopup": "listbox", "aria-expanded": "false" });
    this.modeButton = h("button", { type: "button", id: "mode-picker", class: "mode-pill permission-mode", "aria-haspopup": "listbox", "aria-expanded": "false", "aria-label": "Permission mode" });
    this.sandboxBadge = h("span", { id: "sandbox-badge", class: "sandbox-badge", role: "note" });
    this.editorToolsBadge = h("span", { id: "editor-tools-badge", class: "info-badge", role: "note" });
    this.modelButton.hidden = this.thinkingButton.hidden = this.modeButton.hidden = this.sandboxBadge.hidden = this.editorToolsBadge.hidden = true;
    parts.model.replaceChildren(this.modelButton, this.thinkingButton, this.sandboxBadge, this.editorToolsBadge);
    parts.modeSlot.replaceChildren(this.modeButton);
  }

  setStatus(status: AgentStatus, waiting: boolean, detail?: string, startFailed = false): void {
    const { status: element } = this.parts;
    element.dataset.status = waiting ? "waiting" : status;
    const text = waiting ? "Waiting for you" : startFailed && status === "crashed" ? "Agent did not start" : statusText[status];
    const full = detail ? `${text}: ${detail}` : text;
    // In a narrow side bar a working or waiting agent shows as its dot (the words stay for screen readers and as the tooltip).
    element.title = full;
    element.replaceChildren(h("span", { class: "status-text" }, full));
  }

  setHeader(header: SessionHeader): void {
    const { session, footer } = this.parts;
    const name = header.title ?? header.sessionName ?? header.firstPrompt;
    // A first prompt gives way in a narrow header (the side bar shows it beside the view's title).
    session.dataset.kind = header.title ?? header.sessionName ? "name" : "prompt";
    session.textContent = name ?? "";
    session.hidden = !name;
    session.title = name ?? "";
    const modelTitle = header.model ? (header.provider ? `${header.provider} / ${header.model}` : header.model) : "";
    this.modelButton.hidden = !header.model;
    this.modelButton.title = `Model: ${modelTitle}. Choose another…`;
    this.modelButton.setAttribute("aria-label", `Model: ${header.model ?? ""}. Choose a model`);
    this.modelButton.replaceChildren(icon("hubot"), h("span", { class: "model-name" }, header.model ?? ""), icon("chevron-down", "picker-chevron"));
    this.thinkingButton.hidden = !header.thinkingLevel;
    this.thinkingButton.title = "Thinking level. Choose another…";
    this.thinkingButton.setAttribute("aria-label", `Thinking level: ${header.thinkingLevel ?? ""}. Choose a level`);
    this.thinkingButton.replaceChildren(h("span", {}, header.thinkingLevel ?? ""), icon("chevron-down", "picker-chevron"));
    this.sandboxBadge.hidden = !header.sandbox;
    this.sandboxBadge.title = header.sandbox?.detail ?? "";
    this.sandboxBadge.setAttribute("aria-label", header.sandbox ? `${header.sandbox.label}: ${header.sandbox.detail}` : "");
    this.sandboxBadge.replaceChildren(...(header.sandbox ? [icon("warning"), h("span", { class: "sandbox-label" }, header.sandbox.label)] : []));
    this.editorToolsBadge.hidden = !header.editorTools;
    this.editorToolsBadge.title = header.editorTools?.detail ?? "";
    this.editorToolsBadge.setAttribute("aria-label", header.editorTools ? `${header.editorTools.label}: ${header.editorTools.detail}` : "");
    this.editorToolsBadge.replaceChildren(...(header.editorTools ? [icon("plug"), h("span", {}, header.editorTools.label)] : []));
    this.mode = header.permissionMode;
    this.modeButton.hidden = this.parts.modeSlot.hidden = !header.permissionMode;
    if (header.permissionMode) {
      const info = permissionModeInfo[header.permissionMode];
      this.modeButton.dataset.mode = header.permissionMode;
      this.modeButton.title = `Permission mode: ${info.label}. ${info.detail}. Click to choose, ${cycleModeKey} in the message box to switch`;
      this.modeButton.setAttribute("aria-label", `Permission mode: ${info.label}. Choose a mode`);
      this.modeButton.replaceChildren(icon(info.icon), h("span", { class: "mode-label" }, info.short), icon("chevron-up", "picker-chevron"));
    }
    footer.replaceChildren(...this.usage(header));
    footer.hidden = footer.childElementCount === 0;
  }

  setWidgets(widgets: Widget[]): void {
    const render = (placement: Widget["placement"], target: HTMLElement) => {
      const shown = widgets.filter((w) => w.placement === placement);
      target.hidden = shown.length === 0;
      target.replaceChildren(...shown.map((w) => h("div", { class: "widget", "data-widget": w.key, role: "status" }, ...w.lines.map((line) => h("div", { class: "widget-line" }, line)))));
    };
    render("above", this.parts.widgetsAbove);
    render("below", this.parts.widgetsBelow);
  }

  private usage(header: SessionHeader): HTMLElement[] {
    const parts: HTMLElement[] = [];
    const context = header.context;
    if (context && context.window > 0) {
      const percent = context.percent ?? (context.tokens !== null ? (context.tokens / context.window) * 100 : null);
      const label = percent === null ? `? of ${formatTokens(context.window)}` : `${Math.round(percent)}% of ${formatTokens(context.window)}`;
      const fill = h("div", { class: "context-fill" });
      fill.style.width = `${Math.min(100, Math.max(0, percent ?? 0))}%`;
      if ((percent ?? 0) >= 80) fill.dataset.level = "high";
      const bar = h("div", { class: "context-bar", role: "meter", "aria-label": "Context used", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": Math.round(percent ?? 0) }, fill);
      parts.push(h("div", { class: "context", title: `Context: ${context.tokens ?? "?"} of ${context.window} tokens` }, bar, h("span", { class: "context-label" }, label)));
    }
    const used = header.tokens ? header.tokens.input + header.tokens.output + header.tokens.cacheRead + header.tokens.cacheWrite : 0;
    if (header.tokens && used > 0) {
      const t = header.tokens;
      const cache = t.cacheRead || t.cacheWrite ? ` · cache ${formatTokens(t.cacheRead)}/${formatTokens(t.cacheWrite)}` : "";
      parts.push(h("span", { class: "tokens", title: "Tokens in this session: input, output, cache read/write" }, `↑${formatTokens(t.input)} ↓${formatTokens(t.output)}${cache}`));
    }
    if (header.cost !== undefined && (used > 0 || header.cost > 0)) parts.push(h("span", { class: "cost", title: "Cost of this session" }, formatCost(header.cost)));
    return parts;
  }
}

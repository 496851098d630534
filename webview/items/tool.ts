import type { ChatItemOf } from "../../shared/chat-items";
import { editsOf, lineDiff, withContext, type DiffLine } from "../diff";
import { h, icon } from "../dom";
import { formatDuration, toolSummary } from "../format";
import { article, details, replaceItem, type ItemContext, type ItemView } from "./common";

type ToolItem = ChatItemOf<"tool">;

const toolIcons: Record<string, string> = { bash: "terminal", read: "file", edit: "edit", write: "new-file", grep: "search", find: "search", ls: "list-tree" };
const openByDefault = new Set(["bash", "edit", "write"]);
const maxDiffLines = 400;

/** A tool call: name, arguments, live output, then result or error and duration. */
export class ToolView implements ItemView {
  element: HTMLElement;
  private outputElement: HTMLElement | undefined;
  private progressElement: HTMLElement | undefined;

  constructor(
    private item: ToolItem,
    private readonly ctx: ItemContext,
  ) {
    this.element = this.build();
  }

  update(item: ToolItem): void {
    const before = this.item;
    this.item = item;
    // While the model streams the call, only its progress changes: no re-render of the card.
    if (this.progressElement && item.argumentChars !== undefined && before.name === item.name && sameShortArguments(before.args, item.args)) {
      this.progressElement.textContent = receiving(item.argumentChars);
      return;
    }
    this.element = replaceItem(this.element, this.build());
  }

  output(text: string, replace: boolean): void {
    this.item = { ...this.item, output: replace ? text : this.item.output + text };
    if (!this.outputElement) return this.update(this.item);
    this.outputElement.textContent = this.item.output;
    this.outputElement.hidden = this.item.output === "";
    this.outputElement.scrollTop = this.outputElement.scrollHeight;
    this.ctx.changed();
  }

  private build(): HTMLElement {
    const item = this.item;
    const element = article(item, `Tool ${item.name}`);
    element.dataset.status = item.status;
    element.dataset.tool = item.name;
    if (item.parent !== undefined) element.classList.add("tool-nested");
    // Live output is not read out as it comes: the card is announced once it settles.
    if (item.status === "running") element.setAttribute("aria-busy", "true");
    const notRun = item.status === "notRun" ? `not run: ${item.notRun ?? "refused"}` : undefined;
    const status =
      item.status === "running"
        ? h("span", { class: "tool-status", "aria-label": "running" }, icon("loading", "codicon-modifier-spin"))
        : notRun
          ? h("span", { class: "tool-status", "aria-label": notRun }, icon("circle-slash"))
          : h("span", { class: "tool-status", "aria-label": item.status === "error" ? "failed" : "done" }, icon(item.status === "error" ? "error" : "check"));
    const duration = item.durationMs !== undefined && !notRun ? h("span", { class: "tool-duration" }, formatDuration(item.durationMs)) : null;
    this.progressElement = item.argumentChars !== undefined ? h("span", { class: "tool-duration tool-progress" }, receiving(item.argumentChars)) : undefined;
    const summary = [
      icon(toolIcons[item.name] ?? "tools"),
      h("span", { class: "tool-name" }, item.name),
      h("span", { class: "tool-summary" }, toolSummary(item.name, item.args)),
      h("span", { class: "spacer" }),
      notRun ? h("span", { class: "tool-summary-state" }, notRun) : null,
      this.progressElement ?? null,
      duration,
      status,
    ].filter((n): n is HTMLElement => n !== null);
    // A call refused by the user's mode is folded: what it would have done is one click away.
    const open = item.status === "running" || item.status === "error" || (item.status !== "notRun" && openByDefault.has(item.name));
    element.append(details(summary, open, this.body()));
    return element;
  }

  private body(): HTMLElement {
    const item = this.item;
    const body = h("div", { class: "tool-body" });
    this.outputElement = undefined;
    switch (item.name) {
      case "bash": {
        const args = (item.args ?? {}) as Record<string, unknown>;
        if (typeof args.command === "string") body.append(h("div", { class: "bash-command" }, h("span", { class: "prompt-sign", "aria-hidden": "true" }, "$ "), args.command));
        break;
      }
      case "read":
        body.append(this.fileLink());
        break;
      case "edit":
      case "write":
        body.append(this.fileLink());
        // A failed or refused call changed nothing: no diff, nothing to open; a streaming call has no content yet.
        if (item.status !== "error" && item.status !== "notRun" && item.argumentChars === undefined) body.append(this.diff());
        if (item.status === "done") body.append(this.diffButton());
        break;
      default:
        body.append(h("pre", { class: "tool-args" }, JSON.stringify(item.args, null, 2)));
    }
    const quiet = (item.name === "edit" || item.name === "write") && item.status === "done";
    if (item.status === "notRun") {
      body.append(h("div", { class: "tool-result-note tool-not-run" }, item.output));
    } else if (item.status === "error" && item.name !== "bash") {
      body.append(this.errorBlock());
    } else if (!quiet) {
      this.outputElement = h("pre", { class: `tool-output${item.name === "bash" ? " terminal" : ""}${item.status === "error" ? " error" : ""}`, tabindex: 0, "aria-label": "Output" }, item.output);
      this.outputElement.hidden = item.output === "";
      body.append(this.outputElement);
    } else if (item.output) {
      body.append(h("div", { class: "tool-result-note" }, item.output.split("\n")[0]));
    }
    if (item.images) body.append(h("div", { class: "tool-result-note" }, `${item.images} image${item.images === 1 ? "" : "s"} in the result`));
    return body;
  }

  /** The agent's error for the call, set apart as an error (bash keeps its terminal output). */
  private errorBlock(): HTMLElement {
    const text = this.item.output.trim() || "The tool reported an error without a message.";
    return h(
      "div",
      { class: "tool-error", role: "group", "aria-label": `${this.item.name} failed` },
      h("div", { class: "tool-error-title" }, icon("error"), `${this.item.name} failed`),
      h("div", { class: "tool-error-text", tabindex: 0 }, text),
    );
  }

  private fileLink(): HTMLElement {
    const args = (this.item.args ?? {}) as Record<string, unknown>;
    const path = typeof args.path === "string" ? args.path : typeof args.file_path === "string" ? args.file_path : "";
    if (!path) return h("span");
    const line = typeof args.offset === "number" && args.offset >= 1 ? Math.floor(args.offset) : undefined;
    const link = h("a", { href: "#", class: "file-link", title: `Open ${path}`, "data-action": "open-file" }, icon("go-to-file"), path);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      event.stopPropagation();
      this.ctx.post({ type: "openFile", path, ...(line ? { line } : {}) });
    });
    return h("div", { class: "tool-file" }, link);
  }

  private diff(): HTMLElement {
    const args = (this.item.args ?? {}) as Record<string, unknown>;
    const lines: DiffLine[] = [];
    if (this.item.name === "write") {
      const content = typeof args.content === "string" ? args.content : "";
      lines.push(...lineDiff("", content));
    } else {
      editsOf(args).forEach((edit, i) => {
        if (i > 0) lines.push({ op: "…", text: "" });
        lines.push(...withContext(lineDiff(edit.oldText, edit.newText)));
      });
    }
    const shown = lines.slice(0, maxDiffLines);
    const table = h("div", { class: "diff", role: "table", "aria-label": "Changes" });
    for (const line of shown) {
      const kind = line.op === "+" ? "added" : line.op === "-" ? "removed" : line.op === "…" ? "gap" : "same";
      table.append(h("div", { class: `diff-line ${kind}`, role: "row" }, h("span", { class: "diff-op", "aria-hidden": "true" }, line.op), h("span", { class: "diff-text" }, line.text || " ")));
    }
    if (lines.length > shown.length) table.append(h("div", { class: "diff-line gap" }, `… ${lines.length - shown.length} more lines`));
    return table;
  }

  private diffButton(): HTMLElement {
    const button = h("vscode-button", { secondary: true, "data-action": "open-diff", "aria-label": "Open diff in editor" }, "Open diff in editor");
    button.addEventListener("click", () => this.ctx.post({ type: "openDiff", key: this.item.key }));
    return h("div", { class: "tool-actions" }, button);
  }
}

/** "receiving 12.3 KB": how much of a streaming call's arguments came so far. */
function receiving(chars: number): string {
  return `receiving ${chars < 1024 ? `${chars} B` : chars < 1024 * 1024 ? `${(chars / 1024).toFixed(1)} KB` : `${(chars / 1024 / 1024).toFixed(2)} MB`}`;
}

/** A streaming card's short arguments (a path, a command) are the same: compared field by field, all small. */
function sameShortArguments(a: unknown, b: unknown): boolean {
  const x = (a ?? {}) as Record<string, unknown>;
  const y = (b ?? {}) as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

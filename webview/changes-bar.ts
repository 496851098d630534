import type { FromWebview, ChangesSummary } from "../shared/webview-protocol";
import { h, icon } from "./dom";

/**
 * The changes waiting for review, in one line above the message box at any width: "3 files
 * changed +12 −4" with Review (the first file's diff and the Changes view), Keep All and Undo All
 * (their words shown where there is room, their icons always; the count is cut short before the
 * line wraps). Hidden while nothing waits.
 */
export class ChangesBar {
  constructor(
    private readonly element: HTMLElement,
    private readonly post: (message: FromWebview) => void,
  ) {}

  set(summary: ChangesSummary): void {
    this.element.hidden = summary.files === 0;
    if (summary.files === 0) return void this.element.replaceChildren();
    const files = `${summary.files} file${summary.files === 1 ? "" : "s"} changed`;
    const button = (label: string, action: "review" | "keepAll" | "undoAll", title: string, codicon?: string) => {
      const b = h("button", { type: "button", class: "changes-action", "data-action": `changes-${action}`, title, "aria-label": label },
        codicon ? icon(codicon) : null, h("span", { class: codicon ? "changes-label" : undefined }, label));
      b.addEventListener("click", () => this.post({ type: "changes", action }));
      return b;
    };
    this.element.replaceChildren(
      icon("diff"),
      h("span", { class: "changes-files", "aria-label": `${files}, ${summary.added} lines added, ${summary.removed} removed, waiting for review` }, files),
      h("span", { class: "changes-added", "aria-hidden": "true" }, `+${summary.added}`),
      h("span", { class: "changes-removed", "aria-hidden": "true" }, `−${summary.removed}`),
      h("span", { class: "changes-actions" },
        button("Review", "review", "Open the changes: each file's diff, with Keep and Undo per change"),
        button("Keep All", "keepAll", "Keep every change", "check-all"),
        button("Undo All", "undoAll", "Undo every change: the files go back to before the agent (asks first where you changed them since)", "discard")),
    );
  }
}

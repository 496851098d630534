import { h, icon } from "../dom";
import { details } from "./common";

/**
 * A user message the extension sent with attached context (extension/chat/context/context-format.ts):
 * the user's own text, then `<context type="…" …>` blocks. Split so the blocks can be folded.
 */
export function splitUserContext(text: string): { text: string; context: string; labels: string[] } | undefined {
  const at = text.indexOf('\n\n<context type="');
  if (at < 0 || !/(<\/context>|\/>)\s*$/.test(text)) return undefined;
  const context = text.slice(at + 2);
  const labels = [...context.matchAll(/^<context ([^>\n]*?)\s*\/?>$/gm)].map((m) => label(m[1]));
  return { text: text.slice(0, at), context, labels };
}

function label(attrs: string): string {
  const values = Object.fromEntries([...attrs.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&amp;/g, "&")]));
  const where = values.path ? `${values.path}${values.lines ? `#L${values.lines}` : ""}` : values.type === "undone" ? "what you undid" : values.type;
  return values.omitted || values.error ? `${where} (${values.omitted ?? values.error})` : where;
}

/** The message's text, with its attached context folded under it. */
export function userMessageBody(text: string): HTMLElement[] {
  const split = splitUserContext(text);
  if (!split) return [h("div", { class: "text" }, text)];
  const summary = [icon("paperclip"), h("span", {}, `Attached: ${split.labels.join(", ")}`)];
  return [h("div", { class: "text" }, split.text), details(summary, false, h("pre", { class: "attached-context" }, split.context))];
}

import type { ChatItem } from "../shared/webview-protocol";

const labels: Record<ChatItem["kind"], string> = {
  user: "You",
  assistant: "Pi",
  tool: "Tool",
  notice: "Note",
  error: "Error",
};

/** One transcript entry. Text goes in as textContent only: nothing from the agent is parsed as HTML. */
export function renderItem(item: ChatItem): HTMLElement {
  const element = document.createElement("article");
  element.className = `item item-${item.kind}`;
  element.dataset.key = item.key;
  element.dataset.kind = item.kind;
  if (item.streaming) element.dataset.streaming = "true";
  const header = document.createElement("header");
  header.textContent = item.title ? `${labels[item.kind]}: ${item.title}` : labels[item.kind];
  const body = document.createElement(item.kind === "tool" ? "pre" : "div");
  body.className = "text";
  body.textContent = item.text;
  element.append(header, body);
  return element;
}

export function updateItemText(element: HTMLElement, appended: string): void {
  const body = element.querySelector(".text");
  if (body) body.append(appended);
}

import type { AgentMessage } from "../../../shared/protocol";

/** The text of a user message (images left out). */
export function userText(message: AgentMessage): string {
  if (message.role !== "user") return "";
  return typeof message.content === "string" ? message.content : message.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/**
 * session/load: a saved session's conversation replayed as the session/update notifications a
 * client would have seen: the user's messages, the agent's text and thinking, each tool call
 * with its input and then its result.
 */
import type { SessionUpdate } from "./sdk";
import type { AgentMessage } from "../agent/types";
import { resultContent, toolDiffs, toolKind, toolLocations, toolTitle } from "./tool-calls";

export function replayUpdates(messages: readonly AgentMessage[], cwd: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  for (const message of messages) {
    if (message.role === "user") {
      const content = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
      for (const part of content) {
        if (part.type === "text") updates.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: part.text } });
        else updates.push({ sessionUpdate: "user_message_chunk", content: { type: "image", data: part.data, mimeType: part.mimeType } });
      }
    } else if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type === "text") updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: part.text } });
        else if (part.type === "thinking" && !part.redacted) updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: part.thinking } });
        else if (part.type === "toolCall") {
          calls.set(part.id, { name: part.name, args: part.arguments });
          updates.push({
            sessionUpdate: "tool_call", toolCallId: part.id, title: toolTitle(part.name, part.arguments), kind: toolKind(part.name), status: "pending",
            rawInput: part.arguments, locations: toolLocations(part.name, part.arguments, cwd), _meta: { pi: { toolName: part.name } },
          });
        }
      }
    } else if (message.role === "toolResult") {
      const call = calls.get(message.toolCallId);
      updates.push({
        sessionUpdate: "tool_call_update", toolCallId: message.toolCallId, status: message.isError ? "failed" : "completed",
        content: [...(call && !message.isError && call.name === "edit" ? toolDiffs(call.name, call.args, cwd, undefined) : []), ...resultContent(message)],
      });
    }
  }
  return updates;
}

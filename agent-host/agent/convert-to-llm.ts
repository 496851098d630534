import type { Message, UserMessage } from "../ai/types";
import type { AgentMessage } from "./types";

const user = (text: string, timestamp: number): UserMessage => ({ role: "user", content: [{ type: "text", text }], timestamp });

/**
 * The boundary between agent messages and what a model reads: user, assistant and tool results
 * pass; a shell command the user ran, an extension's message and summaries become user text;
 * system messages and excluded commands are left out.
 */
export function convertToLlm(messages: AgentMessage[]): Message[] {
  return messages.flatMap((m): Message[] => {
    switch (m.role) {
      case "user":
      case "assistant":
      case "toolResult":
        return [m];
      case "bashExecution":
        if (m.excludeFromContext) return [];
        return [user(`Ran \`${m.command}\`\n\`\`\`\n${m.output}\n\`\`\`${m.cancelled ? "\n(cancelled)" : m.exitCode ? `\nExit code ${m.exitCode}` : ""}`, m.timestamp)];
      case "custom":
        return [{ role: "user", content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content, timestamp: m.timestamp }];
      case "compactionSummary":
        return [user(`The conversation history before this point was compacted into the following summary:\n\n<summary>\n${m.summary}\n</summary>`, m.timestamp)];
      case "branchSummary":
        return [user(`The following is a summary of a branch that this conversation came back from:\n\n<summary>\n${m.summary}\n</summary>`, m.timestamp)];
      default:
        return [];
    }
  });
}

/** Messages, models and sessions for the compaction tests (not used by the host itself). */
import type { AgentMessage, AssistantMessage, ToolCall, Usage } from "../../../shared/protocol";
import { setFauxScript, type FauxScript, type FauxTurn } from "../../ai/faux";
import type { Model } from "../../ai/types";
import { SessionManager } from "../persistence/session-manager";

export function usage(input = 0, output = 0): Usage {
  return { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** Text that estimates to exactly `tokens` tokens (chars/4). */
export const sized = (tokens: number, fill = "x") => fill.repeat(tokens * 4);

export const user = (text: string): AgentMessage => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });

export function assistant(text: string, options: { calls?: ToolCall[]; usage?: Usage; stopReason?: AssistantMessage["stopReason"] } = {}): AssistantMessage {
  return {
    role: "assistant",
    content: [...(text ? [{ type: "text" as const, text }] : []), ...(options.calls ?? [])],
    api: "faux",
    provider: "faux",
    model: "m",
    usage: options.usage ?? usage(),
    stopReason: options.stopReason ?? (options.calls?.length ? "toolUse" : "stop"),
    timestamp: 2,
  };
}

export const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ type: "toolCall", id, name, arguments: args });

export const result = (toolCallId: string, toolName: string, text: string): AgentMessage => ({
  role: "toolResult",
  toolCallId,
  toolName,
  content: [{ type: "text", text }],
  isError: false,
  timestamp: 3,
});

let modelCounter = 0;
/** A faux model with its own script; `requests` collects what each summary request sent. */
export function fauxModel(script: FauxTurn[] | FauxScript = [], overrides: Partial<Model> = {}) {
  const id = `compaction-faux-${++modelCounter}`;
  const requests: { system: string; prompt: string }[] = [];
  const turns = Array.isArray(script) ? [...script] : undefined;
  setFauxScript(id, (context, model) => {
    const first = context.messages[0];
    const prompt = first && first.role === "user" && typeof first.content !== "string" ? first.content.map((b) => (b.type === "text" ? b.text : "")).join("") : "";
    requests.push({ system: context.systemPrompt ?? "", prompt });
    return turns ? (turns.shift() ?? { text: "(script exhausted)" }) : (script as FauxScript)(context, model);
  });
  const model: Model = {
    id, name: id, api: "faux", provider: "faux", baseUrl: "", reasoning: false, input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100_000, maxTokens: 4096, ...overrides,
  };
  return { model, requests };
}

/** An in-memory session (or one written to `sessionDir`) holding `messages` in order. */
export function sessionWith(messages: AgentMessage[], sessionDir?: string): { session: SessionManager; ids: string[] } {
  const session = new SessionManager({ cwd: "/w", ...(sessionDir ? { sessionDir } : {}) });
  const ids = messages.map((m) => session.appendMessage(m).id);
  return { session, ids };
}

/** The message roles (with the first text) of a context, for compact assertions. */
export function roles(messages: readonly AgentMessage[]): string[] {
  return messages.map((m) => {
    if (m.role === "compactionSummary") return `summary:${m.summary.split("\n")[0]}`;
    if (m.role === "user" && typeof m.content !== "string") return `user:${m.content[0]?.type === "text" ? m.content[0].text.slice(0, 12) : ""}`;
    return m.role;
  });
}


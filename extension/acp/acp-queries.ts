/**
 * The Pi RPC commands an ACP agent has no request for, answered from what the bridge knows (its
 * session id, the transcript it built, the agent's commands), or refused with a sentence that
 * says ACP has no equivalent (the chat shows it). Plain: no SDK, no I/O.
 */
import type { AgentMessage, CommandType, Model, SessionState, ThinkingLevel } from "../../shared/protocol";

export interface BridgeView {
  sessionId: string;
  name: string;
  streaming: boolean;
  transcript: readonly AgentMessage[];
  commands: readonly { name: string; description?: string }[];
  /** The agent's models (its config option of category model), and the current one. */
  models: readonly Model[];
  model: Model | null;
  /** The agent's thought_level option as our levels, if it maps onto them. */
  thinking: { levels: ThinkingLevel[]; current: ThinkingLevel } | undefined;
}

/** What no ACP agent can do: the chat's commands for them are refused with this. */
export const noEquivalent: Partial<Record<CommandType, string>> = {
  fork: "ACP has no session tree: forking is not available with this agent.",
  branch: "ACP has no session tree: forking is not available with this agent.",
  clone: "ACP has no session tree: cloning is not available with this agent.",
  switch_session: "Reopening a Pi session file is not available with an ACP agent.",
  compact: "ACP has no compaction command: the agent compacts on its own, if it does.",
  bash: "Running a command as the user goes through the agent's own tools with an ACP agent.",
  export_html: "Export is not available for ACP sessions.",
  set_host_tools: "ACP agents take no host tools: the editor serves their files and terminals instead.",
  set_permission_mode: "This ACP agent has its own modes (see its mode picker).",
  set_todos: "The plan of an ACP agent is its own.",
};

/** Settings an ACP agent has no word for: accepted, nothing to do. */
const accepted = new Set<CommandType>([
  "set_session_name", "set_steering_mode", "set_follow_up_mode", "set_auto_compaction", "set_auto_retry", "abort_retry", "abort_bash", "set_interrupt_mode",
]);

export function sessionState(view: BridgeView): SessionState {
  return {
    model: view.model,
    thinkingLevel: view.thinking?.current ?? "off",
    isStreaming: view.streaming,
    isCompacting: false,
    steeringMode: "all",
    followUpMode: "all",
    sessionId: view.sessionId,
    sessionName: view.name,
    autoCompactionEnabled: false,
    messageCount: view.transcript.length,
    pendingMessageCount: 0,
  };
}

const lastAssistantText = (transcript: readonly AgentMessage[]): string | null => {
  const last = [...transcript].reverse().find((m) => m.role === "assistant");
  return last && last.role === "assistant" ? last.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("") : null;
};

export function answerQuery(type: CommandType, view: BridgeView): unknown {
  const refused = noEquivalent[type];
  if (refused) throw new Error(refused);
  if (accepted.has(type)) return undefined;
  const { transcript } = view;
  switch (type) {
    case "get_state":
      return sessionState(view);
    case "get_messages":
      return { messages: transcript };
    case "get_fork_messages":
    case "get_branch_messages":
      // One entry per user prompt: the checkpoint recorder files a turn's records under it.
      return { messages: transcript.flatMap((m, i) => (m.role === "user" ? [{ entryId: `acp-${view.sessionId}-${i}`, text: typeof m.content === "string" ? m.content : "" }] : [])) };
    case "get_commands":
      return { commands: view.commands.map((c) => ({ name: c.name, description: c.description, source: "extension" })) };
    case "get_available_models":
      return { models: view.models };
    case "get_available_thinking_levels":
      return { levels: view.thinking?.levels ?? ["off"] };
    case "get_tree":
      return { tree: [], leafId: null };
    case "get_entries":
      return { entries: [], leafId: null };
    case "get_last_assistant_text":
      return { text: lastAssistantText(transcript) };
    case "get_session_stats": {
      const count = (role: string) => transcript.filter((m) => m.role === role).length;
      return { sessionId: view.sessionId, userMessages: count("user"), assistantMessages: count("assistant"), toolCalls: count("toolResult"), toolResults: count("toolResult"), totalMessages: transcript.length, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }, cost: 0 };
    }
    case "get_mcp_servers":
      return { servers: [] };
    case "cycle_thinking_level":
      return null;
    default:
      throw new Error(`${type} has no ACP equivalent`);
  }
}

import type { AgentMessage } from "../../shared/protocol";
import type { AssistantMessage, AssistantMessageEvent, Context, Message, Model, StreamOptions, ThinkingLevel, ToolCall, ToolResultMessage } from "../ai/types";
import type { AssistantMessageEventStream } from "../ai/event-stream";
import type { AgentToolResult, AnyAgentTool } from "./tool";

export type { AgentMessage };

export type QueueMode = "all" | "one-at-a-time";
/** wait: steering waits for the turn's tools; immediate: a queued steer skips the remaining tool calls. */
export type InterruptMode = "wait" | "immediate";

/** Events of one agent, in pi's order. message_update carries the provider event (with its partial). */
export type AgentEvent =
  | { type: "agent_start" }
  | { type: "agent_end"; messages: AgentMessage[] }
  | { type: "turn_start" }
  | { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown; parentToolCallId?: string }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; args: unknown; partialResult: AgentToolResult; parentToolCallId?: string }
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: AgentToolResult; isError: boolean; durationMs: number; parentToolCallId?: string };

/** A hook's verdict on a tool call: block it (the model reads the reason) or run it with other arguments. */
export type BeforeToolCallResult = { block: true; reason: string } | { block?: false; args?: Record<string, unknown> } | undefined;

export type StreamFunction = (model: Model, context: Context, options: StreamOptions) => AssistantMessageEventStream;

export interface AgentLoopConfig {
  model: Model;
  thinkingLevel: ThinkingLevel;
  systemPrompt: string;
  tools: AnyAgentTool[];
  /** The tools a request declares to the model (default: all of `tools`); calls still find every tool. */
  declaredTools?: (tools: AnyAgentTool[]) => AnyAgentTool[];
  interruptMode: InterruptMode;
  stream: StreamFunction;
  /** Agent messages → LLM messages, before each request. Must not throw. */
  convertToLlm: (messages: AgentMessage[]) => Message[];
  /** Agent-level rewrite of the context before conversion (pruning, injection). Must not throw. */
  transformContext?: (messages: AgentMessage[], signal: AbortSignal) => Promise<AgentMessage[]>;
  /** The key and extra headers for a request to `model` (resolved per request: keys may rotate). */
  requestAuth?: (model: Model) => Promise<{ apiKey?: string; headers?: Record<string, string> }>;
  streamOptions?: Omit<StreamOptions, "signal" | "apiKey" | "reasoning">;
  beforeToolCall?: (call: ToolCall, signal: AbortSignal) => BeforeToolCallResult | Promise<BeforeToolCallResult>;
  afterToolCall?: (call: ToolCall, result: AgentToolResult) => AgentToolResult | Promise<AgentToolResult>;
  /** Queued steering messages, taken after a turn (or after each tool in immediate mode). */
  takeSteering: () => AgentMessage[];
  hasSteering: () => boolean;
  /** Queued follow-ups, taken when the agent would otherwise stop. */
  takeFollowUps: () => AgentMessage[];
}

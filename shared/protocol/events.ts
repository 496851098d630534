import { Type, type Static, type TObject, type TProperties, type TLiteral } from "@sinclair/typebox";
import { AssistantMessage as AssistantMessageSchema, AgentMessage, ToolResultMessage } from "./messages";
import { ToolCall, ToolResult, Usage } from "./content";
import { ThinkingLevel } from "./model";
import { CompactionResult, SessionEntry, TodoPhase } from "./session";
import { lazySchema, lazyTable, type StaticOf } from "./lazy-schema";

type EventSchema<K extends string, P extends TProperties> = TObject<{ type: TLiteral<K> } & P>;

function event<K extends string, P extends TProperties>(type: K, props: P, description: string): EventSchema<K, P> {
  return Type.Object({ type: Type.Literal(type), ...props }, { description }) as EventSchema<K, P>;
}

const Index = () => ({ contentIndex: Type.Integer({ minimum: 0 }) });

/** The streaming delta inside message_update. Pi <= 0.83 also sends a cumulative `partial`. */
export const assistantMessageEventSchemas = lazyTable({
  start: () => event("start", {}, "provider stream started"),
  text_start: () => event("text_start", Index(), "text block started"),
  text_delta: () => event("text_delta", { ...Index(), delta: Type.String() }, "text appended"),
  text_end: () => event("text_end", { ...Index(), content: Type.String() }, "text block final"),
  thinking_start: () => event("thinking_start", Index(), "thinking block started"),
  thinking_delta: () => event("thinking_delta", { ...Index(), delta: Type.String() }, "thinking appended"),
  thinking_end: () => event("thinking_end", { ...Index(), content: Type.String() }, "thinking block final"),
  toolcall_start: () =>
    event(
      "toolcall_start",
      { ...Index(), id: Type.Optional(Type.String()), toolName: Type.Optional(Type.String()) },
      "tool call started (id and toolName since Pi 0.84.3)",
    ),
  toolcall_delta: () => event("toolcall_delta", { ...Index(), delta: Type.String() }, "serialized arguments appended"),
  toolcall_end: () => event("toolcall_end", { ...Index(), toolCall: ToolCall() }, "tool call final"),
  done: () => event("done", { reason: Type.String(), message: Type.Optional(AssistantMessageSchema()) }, "provider stream done"),
  error: () => event("error", { reason: Type.String(), error: Type.Optional(AssistantMessageSchema()) }, "provider stream failed"),
});
export const AssistantMessageEvent = lazySchema(() => Type.Union(Object.values(assistantMessageEventSchemas)));
export type AssistantMessageEvent = StaticOf<typeof AssistantMessageEvent>;

const CompactionReason = lazySchema(() => Type.Union([Type.Literal("manual"), Type.Literal("threshold"), Type.Literal("overflow")]));
const ToolIds = () => ({ toolCallId: Type.String(), toolName: Type.String(), parentToolCallId: Type.Optional(Type.String()) });
const RetryScheduled = () => ({
  attempt: Type.Integer(),
  maxAttempts: Type.Integer(),
  delayMs: Type.Number(),
  errorMessage: Type.String(),
});

/** Every event an agent writes, keyed by `type`: Pi 0.87.1 (with 1.5.x fields), then oh-my-pi's. */
export const eventSchemas = lazyTable({
  agent_start: () => event("agent_start", {}, "a low-level run started"),
  agent_end: () => event("agent_end", { messages: Type.Array(AgentMessage()), willRetry: Type.Optional(Type.Boolean()) }, "a low-level run ended"),
  agent_settled: () => event("agent_settled", { aborted: Type.Optional(Type.Boolean()) }, "no automatic work remains (Pi >= 0.80.4)"),
  turn_start: () => event("turn_start", {}, "an assistant turn started"),
  turn_end: () => event("turn_end", { message: AgentMessage(), toolResults: Type.Array(ToolResultMessage()) }, "an assistant turn and its tools ended"),
  message_start: () => event("message_start", { message: AgentMessage() }, "a message started"),
  message_update: () =>
    event(
      "message_update",
      {
        usage: Type.Optional(Usage()),
        assistantMessageEvent: AssistantMessageEvent(),
        message: Type.Optional(AgentMessage()),
      },
      "a streaming delta; `message` is the cumulative snapshot older peers send",
    ),
  message_end: () => event("message_end", { message: AgentMessage() }, "a message completed (authoritative)"),
  tool_execution_start: () => event("tool_execution_start", { ...ToolIds(), args: Type.Unknown() }, "a tool started"),
  tool_execution_update: () =>
    event(
      "tool_execution_update",
      { ...ToolIds(), args: Type.Unknown(), partialResult: ToolResult() },
      "a tool's latest partial result",
    ),
  tool_execution_end: () =>
    event(
      "tool_execution_end",
      { ...ToolIds(), result: ToolResult(), isError: Type.Boolean(), durationMs: Type.Optional(Type.Number()) },
      "a tool finished",
    ),
  queue_update: () => event("queue_update", { steering: Type.Array(Type.String()), followUp: Type.Array(Type.String()) }, "the queues changed"),
  entry_appended: () => event("entry_appended", { entry: SessionEntry() }, "a session entry was appended"),
  session_info_changed: () => event("session_info_changed", { name: Type.Optional(Type.String()) }, "the session name changed"),
  thinking_level_changed: () => event("thinking_level_changed", { level: ThinkingLevel() }, "the thinking level changed"),
  compaction_start: () => event("compaction_start", { reason: CompactionReason() }, "compaction began"),
  compaction_end: () =>
    event(
      "compaction_end",
      {
        reason: CompactionReason(),
        result: Type.Optional(CompactionResult()),
        aborted: Type.Boolean(),
        willRetry: Type.Boolean(),
        errorMessage: Type.Optional(Type.String()),
      },
      "compaction ended",
    ),
  auto_retry_start: () => event("auto_retry_start", RetryScheduled(), "a retry is scheduled"),
  auto_retry_end: () =>
    event(
      "auto_retry_end",
      { success: Type.Boolean(), attempt: Type.Integer(), finalError: Type.Optional(Type.String()) },
      "retrying ended",
    ),
  summarization_retry_scheduled: () => event("summarization_retry_scheduled", RetryScheduled(), "a summary retry is scheduled"),
  summarization_retry_attempt_start: () =>
    event(
      "summarization_retry_attempt_start",
      { source: Type.Union([Type.Literal("compaction"), Type.Literal("branchSummary")]), reason: Type.Optional(CompactionReason()) },
      "a summary retry started",
    ),
  summarization_retry_finished: () => event("summarization_retry_finished", {}, "summary retries ended"),
  bash_execution_update: () => event("bash_execution_update", { id: Type.Optional(Type.String()), delta: Type.String() }, "output of the bash command"),
  extension_error: () =>
    event(
      "extension_error",
      { extensionPath: Type.String(), event: Type.String(), error: Type.String() },
      "an extension handler threw",
    ),
  // oh-my-pi (seed 001)
  auto_compaction_start: () => event("auto_compaction_start", { reason: Type.Optional(Type.String()) }, "oh-my-pi: compaction began"),
  auto_compaction_end: () =>
    event(
      "auto_compaction_end",
      { result: Type.Optional(CompactionResult()), aborted: Type.Optional(Type.Boolean()), willRetry: Type.Optional(Type.Boolean()) },
      "oh-my-pi: compaction ended",
    ),
  todo_reminder: () => event("todo_reminder", { todos: Type.Optional(Type.Array(Type.Unknown())) }, "oh-my-pi: todos remain"),
  todo_auto_clear: () => event("todo_auto_clear", {}, "oh-my-pi: todos cleared"),
  todo_update: () => event("todo_update", { phases: Type.Array(TodoPhase()) }, "the todo list changed"),
  ttsr_triggered: () => event("ttsr_triggered", {}, "oh-my-pi: a time-traveling stream rule fired"),
  ready: () => event("ready", {}, "oh-my-pi: the agent is ready"),
  notice: () => event("notice", { message: Type.Optional(Type.String()) }, "oh-my-pi: a notice for the user"),
  available_commands_update: () => event("available_commands_update", { commands: Type.Optional(Type.Array(Type.Unknown())) }, "oh-my-pi: commands changed"),
});

export type EventSchemas = typeof eventSchemas;
export type EventType = keyof EventSchemas;
export type EventOf<K extends EventType> = Static<EventSchemas[K]>;
export type AgentEvent = { [K in EventType]: EventOf<K> }[EventType];

import { Type, type Static, type TSchema, type TNull } from "@sinclair/typebox";
import type { CommandType } from "./commands";
import { McpServerStatus } from "./mcp";
import { AgentMessage } from "./messages";
import { Model, PermissionMode, ThinkingLevel } from "./model";
import {
  BashResult,
  CompactionResult,
  SessionEntry,
  SessionState,
  SessionStats,
  SessionTreeNode,
  SlashCommand,
  TodoPhase,
} from "./session";
import { lazySchema, lazyTable, type StaticOf, type LazySchema } from "./lazy-schema";

const None = lazySchema(() => Type.Null({ description: "the response has no data" }));
const Cancelled = lazySchema(() => Type.Object({ cancelled: Type.Boolean() }));
const ForkMessages = lazySchema(() => Type.Object({ messages: Type.Array(Type.Object({ entryId: Type.String(), text: Type.String() })) }));
const Disposition = lazySchema(() => Type.Object({
  disposition: Type.Optional(Type.Union([Type.Literal("started"), Type.Literal("queued"), Type.Literal("handled")])),
}));
const ForkResult = lazySchema(() => Type.Object({ text: Type.Optional(Type.String()), cancelled: Type.Boolean() }));

/** The `data` of each command's success response; `None` where Pi sends no `data`. */
export const responseDataSchemas = lazyTable({
  prompt: Disposition,
  steer: Disposition,
  follow_up: Disposition,
  abort: None,
  clear_queue: () => Type.Object({ steering: Type.Array(Type.String()), followUp: Type.Array(Type.String()) }),
  new_session: Cancelled,
  get_state: SessionState,
  get_messages: () => Type.Object({ messages: Type.Array(AgentMessage()) }),
  set_model: Model,
  cycle_model: () => Type.Union([Type.Object({ model: Model(), thinkingLevel: ThinkingLevel(), isScoped: Type.Boolean() }), Type.Null()]),
  get_available_models: () => Type.Object({ models: Type.Array(Model()) }),
  set_thinking_level: None,
  cycle_thinking_level: () => Type.Union([Type.Object({ level: ThinkingLevel() }), Type.Null()]),
  get_available_thinking_levels: () => Type.Object({ levels: Type.Array(ThinkingLevel()) }),
  set_steering_mode: None,
  set_follow_up_mode: None,
  compact: CompactionResult,
  set_auto_compaction: None,
  set_auto_retry: None,
  abort_retry: None,
  bash: BashResult,
  abort_bash: None,
  get_session_stats: SessionStats,
  export_html: () => Type.Object({ path: Type.String() }),
  switch_session: Cancelled,
  fork: ForkResult,
  clone: Cancelled,
  get_fork_messages: ForkMessages,
  get_entries: () => Type.Object({ entries: Type.Array(SessionEntry()), leafId: Type.Union([Type.String(), Type.Null()]) }),
  get_tree: () => Type.Object({ tree: Type.Array(SessionTreeNode()), leafId: Type.Union([Type.String(), Type.Null()]) }),
  get_last_assistant_text: () => Type.Object({ text: Type.Union([Type.String(), Type.Null()]) }),
  set_session_name: None,
  get_commands: () => Type.Object({ commands: Type.Array(SlashCommand()) }),
  abort_and_prompt: None,
  set_todos: () => Type.Union([Type.Object({ phases: Type.Array(TodoPhase()) }), Type.Array(TodoPhase())]),
  set_host_tools: () => Type.Object({ toolNames: Type.Array(Type.String()) }),
  set_interrupt_mode: None,
  set_permission_mode: () => Type.Object({ mode: PermissionMode() }),
  set_delta_interval: () => Type.Object({ ms: Type.Integer() }),
  get_mcp_servers: () => Type.Object({ servers: Type.Array(McpServerStatus()) }),
  mcp_login: () => Type.Object({ authorizationUrl: Type.Optional(Type.String()) }),
  mcp_logout: () => Type.Object({ removed: Type.Boolean() }),
  branch: ForkResult,
  get_branch_messages: ForkMessages,
} satisfies Record<CommandType, LazySchema>);

/** Pi 0.87.1 sends no data for these; Pi 1.5.x adds `{disposition}`. */
const optionalData = new Set<CommandType>(["prompt", "steer", "follow_up"]);

type DataSchemas = typeof responseDataSchemas;
/** What request(K) resolves with: the response's data (undefined where the command has none). */
export type ResponseData<K extends CommandType> = DataSchemas[K] extends TNull
  ? undefined
  : K extends "prompt" | "steer" | "follow_up"
    ? Static<DataSchemas[K]> | undefined
    : Static<DataSchemas[K]>;

export function successResponseSchema(command: CommandType): TSchema {
  const data: TSchema = responseDataSchemas[command];
  const props = {
    id: Type.Optional(Type.String()),
    type: Type.Literal("response"),
    command: Type.Literal(command),
    success: Type.Literal(true),
  };
  if (data === None()) return Type.Object(props);
  return Type.Object({ ...props, data: optionalData.has(command) ? Type.Optional(data) : data });
}

export const ErrorResponse = lazySchema(() => Type.Object({
  id: Type.Optional(Type.String()),
  type: Type.Literal("response"),
  command: Type.String({ description: "the failed command's type, or 'parse' for an unreadable line" }),
  success: Type.Literal(false),
  error: Type.String(),
}));
export type ErrorResponse = StaticOf<typeof ErrorResponse>;

export interface SuccessResponse<K extends CommandType = CommandType> {
  id?: string;
  type: "response";
  command: K;
  success: true;
  data?: ResponseData<K>;
}
export type RpcResponse = SuccessResponse | ErrorResponse;

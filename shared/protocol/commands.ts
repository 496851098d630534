import { Type, type Static, type TObject, type TProperties, type TLiteral, type TOptional, type TString } from "@sinclair/typebox";
import { ImageContent, JsonObject } from "./content";
import { InterruptMode, PermissionMode, QueueMode, ThinkingLevel } from "./model";
import { TodoPhase } from "./session";
import { lazySchema, lazyTable, type StaticOf } from "./lazy-schema";

type CommandSchema<K extends string, P extends TProperties> = TObject<
  { id: TOptional<TString>; type: TLiteral<K> } & P
>;

function command<K extends string, P extends TProperties>(type: K, props: P, description: string): CommandSchema<K, P> {
  return Type.Object({ id: Type.Optional(Type.String()), type: Type.Literal(type), ...props }, { description }) as CommandSchema<K, P>;
}

const Images = lazySchema(() => Type.Optional(Type.Array(ImageContent())));
const StreamingBehavior = lazySchema(() => Type.Union([Type.Literal("steer"), Type.Literal("followUp")]));

export const HostToolDefinition = lazySchema(() => Type.Object({
  name: Type.String({ minLength: 1 }),
  label: Type.Optional(Type.String()),
  description: Type.String(),
  parameters: JsonObject(),
  loadMode: Type.Optional(Type.String({ description: "oh-my-pi: 'essential' (in the model's tool list at once) or 'discoverable' (its default)" })),
}));
export type HostToolDefinition = StaticOf<typeof HostToolDefinition>;

/** Every command a client may send, keyed by its `type`: Pi 0.87.1's 33, then seed 001's. */
export const commandSchemas = lazyTable({
  prompt: () => command("prompt", { message: Type.String(), images: Images(), streamingBehavior: Type.Optional(StreamingBehavior()) }, "Send a user prompt; while streaming, streamingBehavior is required."),
  steer: () => command("steer", { message: Type.String(), images: Images() }, "Queue a steering message for after the current tool calls."),
  follow_up: () => command("follow_up", { message: Type.String(), images: Images() }, "Queue a message for when the agent would stop."),
  abort: () => command("abort", {}, "Abort the current run; answered once it has settled."),
  clear_queue: () => command("clear_queue", {}, "Remove all queued steering and follow-up messages."),
  new_session: () => command("new_session", { parentSession: Type.Optional(Type.String()) }, "Start a new session."),
  get_state: () => command("get_state", {}, "Current session state."),
  get_messages: () => command("get_messages", {}, "All messages of the current branch."),
  set_model: () => command("set_model", { provider: Type.String(), modelId: Type.String() }, "Switch model."),
  cycle_model: () => command("cycle_model", {}, "Switch to the next scoped model."),
  get_available_models: () => command("get_available_models", {}, "Models with configured credentials."),
  set_thinking_level: () => command("set_thinking_level", { level: ThinkingLevel() }, "Set the thinking level (clamped to the model)."),
  cycle_thinking_level: () => command("cycle_thinking_level", {}, "Next thinking level."),
  get_available_thinking_levels: () => command("get_available_thinking_levels", {}, "Thinking levels the model supports."),
  set_steering_mode: () => command("set_steering_mode", { mode: QueueMode() }, "How steering messages are dequeued."),
  set_follow_up_mode: () => command("set_follow_up_mode", { mode: QueueMode() }, "How follow-up messages are dequeued."),
  compact: () => command("compact", { customInstructions: Type.Optional(Type.String()) }, "Summarize older context."),
  set_auto_compaction: () => command("set_auto_compaction", { enabled: Type.Boolean() }, "Toggle automatic compaction."),
  set_auto_retry: () => command("set_auto_retry", { enabled: Type.Boolean() }, "Toggle automatic retry of transient errors."),
  abort_retry: () => command("abort_retry", {}, "Cancel a pending retry."),
  bash: () => command("bash", { command: Type.String(), excludeFromContext: Type.Optional(Type.Boolean()) }, "Run a shell command as the user."),
  abort_bash: () => command("abort_bash", {}, "Cancel the running bash command."),
  get_session_stats: () => command("get_session_stats", {}, "Token and message counts."),
  export_html: () => command("export_html", { outputPath: Type.Optional(Type.String()) }, "Export the session as HTML."),
  switch_session: () => command("switch_session", { sessionPath: Type.String() }, "Open another session file."),
  fork: () => command("fork", { entryId: Type.String() }, "New session from an earlier user message."),
  clone: () => command("clone", {}, "Copy the current branch into a new session."),
  get_fork_messages: () => command("get_fork_messages", {}, "User messages that can be forked from."),
  get_entries: () => command("get_entries", { since: Type.Optional(Type.String()) }, "Session entries, optionally after an entry id."),
  get_tree: () => command("get_tree", {}, "The session entry tree."),
  get_last_assistant_text: () => command("get_last_assistant_text", {}, "Text of the last assistant message."),
  set_session_name: () => command("set_session_name", { name: Type.String() }, "Set the session display name."),
  get_commands: () => command("get_commands", {}, "Slash commands from extensions, prompt templates and skills."),
  // seed 001 (oh-my-pi)
  abort_and_prompt: () => command("abort_and_prompt", { message: Type.String(), images: Images() }, "Abort the run, then prompt."),
  set_todos: () => command("set_todos", { phases: Type.Array(TodoPhase()) }, "Replace the todo list."),
  set_host_tools: () =>
    command(
      "set_host_tools",
      {
        tools: Type.Array(HostToolDefinition()),
        loadMode: Type.Optional(Type.String({ description: "oh-my-pi: 'essential' puts the tools in the model's list at once" })),
      },
      "Replace the tools the client executes.",
    ),
  set_interrupt_mode: () => command("set_interrupt_mode", { mode: InterruptMode() }, "When queued steering interrupts tool calls."),
  branch: () => command("branch", { entryId: Type.String() }, "oh-my-pi's name for fork."),
  get_branch_messages: () => command("get_branch_messages", {}, "oh-my-pi's name for get_fork_messages."),
  // ours
  set_permission_mode: () =>
    command(
      "set_permission_mode",
      { mode: PermissionMode() },
      "Ours: ask (the configured questions), acceptEdits (edit/write without asking), plan (read-only tools only), auto (nothing asked).",
    ),
  set_delta_interval: () =>
    command(
      "set_delta_interval",
      { ms: Type.Integer({ minimum: 0, maximum: 250 }) },
      "Ours: consecutive text, thinking or tool-call deltas of one block leave joined in one message_update, at most one per `ms` (0, the default: one per delta, as pi).",
    ),
  get_mcp_servers: () => command("get_mcp_servers", {}, "Ours: the MCP servers of mcp.json with their state, tool count, exposure and source (none with --no-mcp)."),
  mcp_login: () =>
    command(
      "mcp_login",
      { server: Type.String() },
      "Ours: starts an OAuth sign-in to an HTTP MCP server; answers the authorization page the user must open (none when a stored refresh token was enough). The end is a notify.",
    ),
  mcp_logout: () => command("mcp_logout", { server: Type.String() }, "Ours: deletes an MCP server's stored sign-in (mcp-auth.json) and reconnects it."),
});

export type CommandSchemas = typeof commandSchemas;
export type CommandType = keyof CommandSchemas;
export type CommandOf<K extends CommandType> = Static<CommandSchemas[K]>;
export type RpcCommand = { [K in CommandType]: CommandOf<K> }[CommandType];
/** A command without `id` and `type`, as the client's request() takes it. */
export type CommandParams<K extends CommandType> = Omit<CommandOf<K>, "id" | "type">;

export const piCommandTypes = Object.keys(commandSchemas).slice(0, 33) as CommandType[];

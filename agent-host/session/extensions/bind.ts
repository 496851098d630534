/**
 * Connects the extensions to a session: agent and session events reach their handlers, the
 * agent's tool hooks run `tool_call` (block or change the input) and `tool_result` (change the
 * result), `context` rewrites what the model sees, and extension tools join the agent's tools
 * (replacing a built-in tool of the same name, as in pi).
 */
import type { Disposable } from "vscode-jsonrpc";
import type { AgentToolResult, AnyAgentTool } from "../../agent/tool";
import type { AgentEvent } from "../../agent/types";
import type { HostSession } from "../host-session/host-session";
import type { ExtensionRunner } from "./runner";
import type { NotifyEvent, ToolDefinition } from "./types";

export function wrapTool(definition: ToolDefinition, runner: ExtensionRunner): AnyAgentTool {
  const prepare = definition.prepareArguments;
  return {
    name: definition.name,
    label: definition.label ?? definition.name,
    description: definition.description,
    parameters: definition.parameters,
    ...(definition.executionMode === "sequential" ? { sequential: true } : {}),
    ...(prepare ? { prepareArguments: (args: unknown) => prepare(args) } : {}),
    async execute(toolCallId, params, signal, onUpdate): Promise<AgentToolResult> {
      const result: Partial<AgentToolResult> | undefined = await definition.execute(toolCallId, params, signal, onUpdate, runner.context());
      // A returned object is never an error (pi): only a throw is.
      return { content: Array.isArray(result?.content) ? result.content : [], ...(result?.details !== undefined ? { details: result.details } : {}) };
    },
  };
}

/** The agent event as extensions see it (turns are numbered within a run). */
function notifyEvent(event: AgentEvent, turn: { index: number }): NotifyEvent {
  switch (event.type) {
    case "agent_start":
      turn.index = -1;
      return event;
    case "turn_start":
      return { type: "turn_start", turnIndex: ++turn.index, timestamp: Date.now() };
    case "turn_end":
      return { type: "turn_end", turnIndex: turn.index, message: event.message, toolResults: event.toolResults };
    case "tool_execution_end": {
      const { durationMs: _d, ...rest } = event;
      return rest;
    }
    default:
      return event;
  }
}

export function bindExtensions(runner: ExtensionRunner, session: HostSession): Disposable {
  const agent = session.agent;
  const tools = runner.tools((definition) => wrapTool(definition, runner));
  const names = new Set(tools.map((t) => t.name));
  agent.setTools([...agent.tools.filter((t) => !names.has(t.name)), ...tools]);

  agent.setHooks({
    beforeToolCall: async (call) => {
      if (!runner.hasHandlers("tool_call")) return undefined;
      const event = { type: "tool_call" as const, toolCallId: call.id, toolName: call.name, input: call.arguments };
      const verdict = await runner.emitToolCall(event);
      return verdict?.block ? { block: true, reason: verdict.reason ?? "Blocked by extension" } : { args: event.input };
    },
    afterToolCall: async (call, result) => {
      if (!runner.hasHandlers("tool_result")) return result;
      const changed = await runner.emitToolResult({
        type: "tool_result", toolCallId: call.id, toolName: call.name, input: call.arguments,
        content: result.content, details: result.details, isError: result.isError === true,
      });
      if (!changed) return result;
      return { content: changed.content ?? result.content, ...(changed.details !== undefined ? { details: changed.details } : {}), isError: changed.isError === true };
    },
    transformContext: async (messages) => (runner.hasHandlers("context") ? runner.emitContext(messages) : messages),
  });

  // Handlers see events one at a time, in order (a slow handler delays the next event's handlers, not the agent).
  // Events no handler wants are not queued: a streamed reply is thousands of message_update events.
  let queue = Promise.resolve();
  const dispatch = (event: NotifyEvent) => {
    if (runner.hasHandlers(event.type)) queue = queue.then(() => runner.emit(event));
  };
  const settleAfterHandlers = session.onBeforeSettle(() => queue);
  const turn = { index: -1 };
  const fromAgent = agent.onEvent((event) => dispatch(notifyEvent(event, turn)));
  const fromSession = session.onEvent((event) => {
    if (event.type === "agent_settled") dispatch({ type: "agent_settled" });
    else if (event.type === "session_info_changed") dispatch({ type: "session_info_changed", name: event.name });
  });
  return { dispose: () => (fromAgent.dispose(), fromSession.dispose(), settleAfterHandlers.dispose()) };
}

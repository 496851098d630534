import { errorText } from "../ai/message-stream-builder";
import { toolCallRefusal } from "../ai/tool-call-limits";
import type { ToolCall, ToolResultMessage } from "../ai/types";
import type { AgentToolResult, AnyAgentTool, NestedToolRunner } from "./tool";
import type { AgentEvent, AgentLoopConfig } from "./types";
import { validateToolArguments } from "./validate-arguments";

export const SKIPPED_FOR_STEERING = "Skipped due to queued user message";

const textResult = (text: string): AgentToolResult => ({ content: [{ type: "text", text }], isError: true });

export interface ToolRunContext {
  config: AgentLoopConfig;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  /** Nested calls of sequential tools wait here, one at a time (shared by the calls of one message). */
  sequentialQueue?: { tail: Promise<void> };
  /** This call (or one it runs in) holds the queue: its nested calls do not wait on it again. */
  holdsQueue?: boolean;
}

/**
 * Runs the tool calls of one assistant message and returns their results in call order. Calls
 * run in parallel unless a tool asks to run alone; an unknown tool, invalid arguments, a block by
 * the before-hook or a throw becomes an error result the model can read. In interrupt mode
 * "immediate", a queued steering message skips the calls not yet started.
 */
export async function runToolCalls(calls: ToolCall[], given: ToolRunContext): Promise<ToolResultMessage[]> {
  const context: ToolRunContext = given.sequentialQueue ? given : { ...given, sequentialQueue: { tail: Promise.resolve() } };
  const results: ToolResultMessage[] = new Array(calls.length);
  let skipping = false;
  let index = 0;
  while (index < calls.length) {
    const group = nextGroup(calls, index, context.config);
    if (skipping || context.signal.aborted) {
      for (const call of group) {
        context.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments });
        results[index++] = finish(call, skipResult(context.signal), context, Date.now());
      }
      continue;
    }
    const settled = await Promise.all(group.map((call) => runOne(call, context)));
    for (const result of settled) results[index++] = result;
    if (context.config.interruptMode === "immediate" && context.config.hasSteering()) skipping = true;
  }
  return results;
}

function skipResult(signal: AbortSignal): AgentToolResult {
  return textResult(signal.aborted ? "Aborted before the tool ran" : SKIPPED_FOR_STEERING);
}

/** Consecutive calls that may run together; a sequential tool (or, in immediate mode, every tool) runs alone. */
function nextGroup(calls: ToolCall[], from: number, config: AgentLoopConfig): ToolCall[] {
  const alone = (call: ToolCall) => config.tools.find((t: AnyAgentTool) => t.name === call.name)?.sequential === true;
  if (config.interruptMode === "immediate" || alone(calls[from])) return [calls[from]];
  const group = [calls[from]];
  for (let i = from + 1; i < calls.length && !alone(calls[i]); i++) group.push(calls[i]);
  return group;
}

async function runOne(call: ToolCall, context: ToolRunContext): Promise<ToolResultMessage> {
  const started = Date.now();
  const tool = context.config.tools.find((t) => t.name === call.name);
  const result = await runPipeline(call, tool, context, context.signal, undefined);
  return finish(call, result, context, started);
}

/**
 * One call through the tools' path: start event, refusal of malformed calls, argument
 * validation, the before-hook (permission questions), execute, the after-hook. A model's call
 * and a nested one (`parent` set: its events carry `parentToolCallId`) take the same path.
 */
async function runPipeline(call: ToolCall, tool: AnyAgentTool | undefined, context: ToolRunContext, signal: AbortSignal, parent: string | undefined): Promise<AgentToolResult> {
  const { config, emit } = context;
  const parentField = parent === undefined ? {} : { parentToolCallId: parent };
  emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments, ...parentField });
  const refusal = toolCallRefusal(call);
  if (refusal) return textResult(refusal);
  if (!tool) return textResult(`Tool ${call.name} not found`);

  const checked = validateToolArguments(tool, tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments);
  if (!checked.ok) return textResult(checked.error);
  let args = checked.args;

  try {
    const verdict = await config.beforeToolCall?.({ ...call, arguments: args }, signal);
    if (verdict?.block) return textResult(verdict.reason);
    if (verdict?.args) args = verdict.args;
  } catch (error) {
    return textResult(`Tool call blocked: ${errorText(error)}`);
  }

  let result: AgentToolResult;
  try {
    result = await tool.execute(
      call.id,
      args,
      signal,
      (partial) => emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, args, partialResult: partial, ...parentField }),
      nestedRunner(call.id, context),
    );
  } catch (error) {
    result = textResult(signal.aborted ? `Aborted: ${errorText(error)}` : errorText(error));
  }
  if (config.afterToolCall) {
    try {
      result = await config.afterToolCall({ ...call, arguments: args }, result);
    } catch (error) {
      result = textResult(`Tool result hook failed: ${errorText(error)}`);
    }
  }
  return result;
}

/**
 * The calls a running tool makes: ids `<parent>/<n>`, the same pipeline, events with
 * `parentToolCallId`. A tool that must run alone (`sequential`) runs one nested call at a time,
 * as Pi serialises nested calls of its sequential tools: a script's `Promise.all` over it queues.
 */
function nestedRunner(parent: string, context: ToolRunContext): NestedToolRunner {
  let next = 1;
  return {
    async runTool(tool, args, signal, onUpdate) {
      const call: ToolCall = { type: "toolCall", id: `${parent}/${next++}`, name: tool.name, arguments: (args ?? {}) as Record<string, unknown> };
      const emit = (event: AgentEvent): void => {
        if (event.type === "tool_execution_update" && event.toolCallId === call.id) onUpdate?.(event.partialResult);
        context.emit(event);
      };
      const queue = context.sequentialQueue;
      const exclusive = queue !== undefined && !context.holdsQueue && tool.sequential === true;
      let release: (() => void) | undefined;
      if (exclusive) {
        const previous = queue.tail;
        queue.tail = new Promise<void>((resolve) => (release = resolve));
        await previous;
      }
      const started = Date.now();
      let result: AgentToolResult;
      try {
        result = await runPipeline(call, tool, { ...context, emit, holdsQueue: context.holdsQueue === true || exclusive }, signal, parent);
      } finally {
        release?.();
      }
      const isError = result.isError === true;
      const clean: AgentToolResult = { content: result.content, ...(result.details === undefined ? {} : { details: result.details }) };
      context.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result: clean, isError, durationMs: Date.now() - started, parentToolCallId: parent });
      return { toolCallId: call.id, result, isError };
    },
  };
}

function finish(call: ToolCall, result: AgentToolResult, context: ToolRunContext, started: number): ToolResultMessage {
  const isError = result.isError === true;
  const clean: AgentToolResult = { content: result.content, ...(result.details === undefined ? {} : { details: result.details }) };
  context.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result: clean, isError, durationMs: Date.now() - started });
  const message: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: result.content,
    isError,
    timestamp: Date.now(),
  };
  if (result.details !== undefined) message.details = result.details;
  return message;
}

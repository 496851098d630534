import { MessageStreamBuilder } from "../ai/message-stream-builder";
import type { AssistantMessage, ToolCall, ToolResultMessage } from "../ai/types";
import { runToolCalls } from "./tool-runner";
import type { AgentEvent, AgentLoopConfig, AgentMessage } from "./types";

/**
 * One run of the agent: the inner loop alternates model turns and tool calls and takes queued
 * steering messages after each turn; the outer loop takes follow-ups before stopping. `context`
 * is the conversation and grows in place. Returns the messages the run added.
 */
export async function runAgentLoop(
  prompts: AgentMessage[],
  context: AgentMessage[],
  config: AgentLoopConfig,
  emit: (event: AgentEvent) => void,
  signal: AbortSignal,
): Promise<AgentMessage[]> {
  const added: AgentMessage[] = [];
  const append = (message: AgentMessage) => {
    emit({ type: "message_start", message });
    emit({ type: "message_end", message });
    context.push(message);
    added.push(message);
  };
  emit({ type: "agent_start" });
  let pending = prompts;
  let firstTurn = true;

  for (;;) {
    let moreToolCalls = true;
    while (moreToolCalls || pending.length > 0) {
      emit({ type: "turn_start" });
      for (const message of pending) append(message);
      pending = [];
      if (firstTurn) {
        // Steering queued while the agent was idle joins the first turn (as pi's loop does).
        firstTurn = false;
        for (const message of config.takeSteering()) append(message);
      }

      const assistant = await streamTurn(context, config, emit, signal);
      context.push(assistant);
      added.push(assistant);
      if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
        emit({ type: "turn_end", message: assistant, toolResults: [] });
        emit({ type: "agent_end", messages: added });
        return added;
      }
      const calls = assistant.content.filter((c): c is ToolCall => c.type === "toolCall");
      moreToolCalls = calls.length > 0;
      let results: ToolResultMessage[] = [];
      if (moreToolCalls) {
        results = await runToolCalls(calls, { config, signal, emit });
        for (const result of results) append(result);
      }
      emit({ type: "turn_end", message: assistant, toolResults: results });
      if (signal.aborted) {
        emit({ type: "agent_end", messages: added });
        return added;
      }
      pending = config.takeSteering();
    }
    pending = config.takeFollowUps();
    if (pending.length === 0) break;
  }
  emit({ type: "agent_end", messages: added });
  return added;
}

/** A turn that failed before any request (e.g. no API key): an error message like a provider's. */
function failedTurn(config: AgentLoopConfig, error: unknown, emit: (event: AgentEvent) => void): AssistantMessage {
  const builder = new MessageStreamBuilder(config.model);
  const message = builder.fail(error, false);
  emit({ type: "message_start", message: { ...message, content: [] } });
  emit({ type: "message_end", message });
  return message;
}

/** Streams one assistant message, emitting message_start / message_update / message_end. */
async function streamTurn(
  context: AgentMessage[],
  config: AgentLoopConfig,
  emit: (event: AgentEvent) => void,
  signal: AbortSignal,
): Promise<AssistantMessage> {
  const transformed = config.transformContext ? await config.transformContext(context, signal) : context;
  const messages = config.convertToLlm(transformed);
  let auth: { apiKey?: string; headers?: Record<string, string> } = {};
  try {
    auth = (await config.requestAuth?.(config.model)) ?? {};
  } catch (error) {
    return failedTurn(config, error, emit);
  }
  const headers = auth.headers || config.streamOptions?.headers ? { ...config.streamOptions?.headers, ...auth.headers } : undefined;
  const stream = config.stream(
    config.model,
    { systemPrompt: config.systemPrompt, messages, tools: config.declaredTools ? config.declaredTools(config.tools) : config.tools },
    { ...config.streamOptions, signal, apiKey: auth.apiKey, ...(headers ? { headers } : {}), reasoning: config.thinkingLevel === "off" ? undefined : config.thinkingLevel },
  );
  // As pi: the message starts once the response streams (its first event), so message_start
  // carries the response id, and a request that fails outright starts with its error.
  let started = false;
  for await (const event of stream) {
    if (event.type === "start") continue;
    if (event.type === "done" || event.type === "error") {
      const message = event.type === "done" ? event.message : event.error;
      if (!started) emit({ type: "message_start", message: { ...message, content: [] } });
      emit({ type: "message_end", message });
      return message;
    }
    if (!started) {
      started = true;
      emit({ type: "message_start", message: { ...event.partial, content: [] } });
    }
    emit({ type: "message_update", message: event.partial, assistantMessageEvent: event });
  }
  return stream.result();
}

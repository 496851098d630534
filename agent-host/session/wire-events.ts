import type { AgentEvent as WireEvent, AssistantMessageEvent as WireAssistantEvent } from "../../shared/protocol";
import type { AgentEvent } from "../agent/types";

/**
 * An agent event as it goes on the wire: message_update loses the cumulative `partial` (the
 * stream stays linear in size) and carries the latest usage instead.
 */
export function toWireEvent(event: AgentEvent, willRetry = false): WireEvent {
  switch (event.type) {
    case "message_update": {
      const { partial: _partial, ...delta } = event.assistantMessageEvent as typeof event.assistantMessageEvent & { partial?: unknown };
      return { type: "message_update", usage: event.message.usage, assistantMessageEvent: delta as WireAssistantEvent };
    }
    case "agent_end":
      return { type: "agent_end", messages: event.messages, willRetry };
    case "tool_execution_end": {
      const { durationMs: _d, ...rest } = event;
      return rest;
    }
    default:
      return event;
  }
}

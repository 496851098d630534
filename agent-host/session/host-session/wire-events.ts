import type { AgentEvent as WireEvent, AssistantMessageEvent as WireAssistantEvent } from "../../../shared/protocol";
import type { AgentEvent } from "../../agent/types";

/**
 * An agent event as it goes on the wire: message_update loses the cumulative `partial` (the
 * stream stays linear in size) and carries the latest usage instead.
 */
export function toWireEvent(event: AgentEvent, willRetry = false, snapshots = false): WireEvent {
  switch (event.type) {
    case "message_update": {
      const { partial: _partial, ...delta } = event.assistantMessageEvent as typeof event.assistantMessageEvent & { partial?: unknown };
      if (snapshots) {
        // Seed 000's older Pi: the cumulative message on the event and inside it, for old clients.
        return { type: "message_update", usage: event.message.usage, assistantMessageEvent: { ...delta, partial: event.message } as unknown as WireAssistantEvent, message: event.message };
      }
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

/**
 * Custom messages (role "custom": seen by the model, shown by clients that show them) put into a
 * session from outside the model: by an extension's `pi.sendMessage`, or by the host itself when
 * the client changed something the model must know (the plan). As pi 0.87.1: outside a run the
 * message joins the conversation at once (a `custom_message` entry, `message_start`/`message_end`);
 * during a run it is steered in, read before the model's next call.
 */
import type { CustomMessage } from "../../../shared/protocol";
import type { HostSession } from "./host-session";

/** Into the conversation and the session file, without a run. */
export function appendCustomMessage(session: HostSession, message: CustomMessage): void {
  session.agent.messages.push(message);
  const { role: _role, timestamp: _t, ...entry } = message;
  session.sessions.append({ type: "custom_message", ...entry });
  session.emit({ type: "message_start", message });
  session.emit({ type: "message_end", message });
}

/** Steered into a running turn, else appended for the next prompt. */
export function deliverCustomMessage(session: HostSession, message: CustomMessage): void {
  if (session.isStreaming) session.promptMessage(message, "steer");
  else appendCustomMessage(session, message);
}

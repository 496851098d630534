/**
 * Questions the host asks through its dialog channel (extension_ui_request in --mode rpc) other
 * than the permission gate's: the sandbox's "run outside the sandbox?", a network host, project
 * trust, a Pi extension's ctx.ui. A select or confirm becomes session/request_permission (its
 * answers as options); ACP has no text input, so input and editor dialogs are answered cancelled,
 * at once. Notices go to stderr (a client's log).
 */
import type { AgentContext, PermissionOption } from "./sdk";
import type { AcpRuntime } from "./host";

type Frame = { type?: unknown; id?: unknown; method?: unknown; title?: unknown; message?: unknown; options?: unknown };

export async function answerDialog(frame: Frame, runtime: AcpRuntime, client: AgentContext, sessionId: string, warn: (message: string) => void): Promise<void> {
  const id = String(frame.id);
  const respond = (answer: { value?: string; confirmed?: boolean; cancelled?: boolean }) => runtime.extensionUi?.receive({ type: "extension_ui_response", id, ...answer });
  if (frame.method === "select" || frame.method === "confirm") {
    const answers = frame.method === "select" && Array.isArray(frame.options) ? frame.options.map(String) : ["Yes", "No"];
    const options: PermissionOption[] = answers.map((name, index) => ({ optionId: String(index), name, kind: /^(deny|no|cancel|don't|do not)/i.test(name) ? "reject_once" : "allow_once" }));
    const text = [frame.title, frame.message].filter((t) => typeof t === "string").join("\n");
    const response = await client.request("session/request_permission", {
      sessionId,
      toolCall: { toolCallId: `pi-question-${id}`, title: String(frame.title ?? "Question"), kind: "other", content: [{ type: "content", content: { type: "text", text } }] },
      options,
    });
    if (response.outcome.outcome !== "selected") return void respond({ cancelled: true });
    const chosen = answers[Number(response.outcome.optionId)];
    if (frame.method === "confirm") return void respond({ confirmed: chosen === "Yes" });
    return void respond(chosen === undefined ? { cancelled: true } : { value: chosen });
  }
  if (frame.method === "input" || frame.method === "editor") return void respond({ cancelled: true });
  if (frame.method === "notify" && typeof frame.message === "string") warn(frame.message);
}

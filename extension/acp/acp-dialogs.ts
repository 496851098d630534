/**
 * The permission questions of one ACP connection as Pi `select` dialogs: each is sent to the
 * RpcClient as an extension_ui_request (the chat shows it natively and as a card), its answer comes
 * back as an extension_ui_response and becomes the agent's optionId; a question the agent
 * withdraws, or that an Abort ends, is cancelled on both sides.
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { permissionQuestion } from "./acp-permission";

type Answer = { value?: unknown } & Record<string, unknown>;
const cancelled: acp.RequestPermissionResponse = { outcome: { outcome: "cancelled" } };

export class PermissionDialogs {
  private readonly open = new Map<string, (answer: Answer | undefined) => void>();
  private counter = 0;

  constructor(private readonly toClient: (frame: unknown) => void) {}

  ask(agentName: string, request: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const question = permissionQuestion(agentName, request);
    const id = `acp-permission-${++this.counter}`;
    return new Promise((resolve) => {
      const onAbort = () => this.withdraw(id);
      this.open.set(id, (answer) => {
        signal.removeEventListener("abort", onAbort);
        const optionId = typeof answer?.value === "string" ? question.optionOf(answer.value) : undefined;
        resolve(optionId ? { outcome: { outcome: "selected", optionId } } : cancelled);
      });
      signal.addEventListener("abort", onAbort);
      this.toClient({ type: "extension_ui_request", id, method: "select", title: question.title, options: question.labels });
    });
  }

  /** An extension_ui_response from the client. */
  answer(id: string, answer: Answer): void {
    const done = this.open.get(id);
    this.open.delete(id);
    done?.(answer);
  }

  /** Abort: every open question is cancelled, in the chat too. */
  cancelAll(): void {
    for (const id of [...this.open.keys()]) this.withdraw(id);
  }

  private withdraw(id: string): void {
    const done = this.open.get(id);
    if (!done) return;
    this.open.delete(id);
    this.toClient({ type: "extension_ui_request", id: `${id}-cancel`, method: "cancel", targetId: id });
    done(undefined);
  }
}

/**
 * The RPC side of ctx.ui (pi's extension UI sub-protocol, docs/rpc-extension-ui.md): a dialog is
 * an `extension_ui_request` with a fresh id, answered by the client's `extension_ui_response`
 * with that id. As pi 0.87.1 does: a dialog whose `timeout` passes or whose AbortSignal fires
 * resolves with its default at once and nothing is sent (the client expires its own dialog);
 * an answer to an unknown or finished dialog is ignored; notices are sent and never answered.
 */
import { randomUUID } from "node:crypto";
import type { DialogAnswer, ExtensionUiResponse } from "../../shared/protocol";
import type { DialogSpec, NoticeSpec, UiBridge } from "../session/extensions";

export class RpcExtensionUi implements UiBridge {
  private readonly pending = new Map<string, (answer: DialogAnswer | undefined) => void>();

  constructor(
    private readonly send: (frame: object) => void,
    private readonly newId: () => string = randomUUID,
  ) {}

  /** Dialogs still waiting for an answer. */
  get openDialogs(): number {
    return this.pending.size;
  }

  dialog(spec: DialogSpec, signal?: AbortSignal): Promise<DialogAnswer | undefined> {
    if (signal?.aborted) return Promise.resolve(undefined);
    const id = this.newId();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => finish(undefined);
      const finish = (answer: DialogAnswer | undefined) => {
        if (!this.pending.delete(id)) return;
        if (timer) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(answer);
      };
      this.pending.set(id, finish);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.send({ type: "extension_ui_request", id, ...spec });
      const timeout = "timeout" in spec ? spec.timeout : undefined;
      if (timeout !== undefined && timeout > 0) timer = setTimeout(() => finish(undefined), timeout);
    });
  }

  notice(spec: NoticeSpec): void {
    this.send({ type: "extension_ui_request", id: this.newId(), ...spec });
  }

  /** An extension_ui_response from the client. */
  receive(response: ExtensionUiResponse): void {
    const { type: _type, id, ...answer } = response;
    this.pending.get(id)?.(answer as DialogAnswer);
  }

  /** The client is gone: every open dialog resolves with its default. */
  cancelAll(): void {
    for (const finish of [...this.pending.values()]) finish(undefined);
  }
}

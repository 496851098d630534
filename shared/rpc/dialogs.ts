import { CancellationTokenSource, type CancellationToken, type Disposable } from "vscode-jsonrpc";
import type { DialogAnswer, DialogRequest, ExtensionUiRequest, ExtensionUiResponse, UiNotice } from "../protocol";

export type DialogHandler = (request: DialogRequest, token: CancellationToken) => Promise<DialogAnswer>;
export type NoticeHandler = (notice: UiNotice) => void;
export type DialogOutcome = DialogAnswer | { expired: true };

const dialogMethods = new Set(["select", "confirm", "input", "editor"]);
export const isDialogRequest = (request: ExtensionUiRequest): request is DialogRequest => dialogMethods.has(request.method);

/**
 * Answers extension-UI dialogs through the installed handler. A dialog with `timeout` is
 * expired here (Pi resolves its default itself and sends nothing), which cancels the handler's
 * token so the UI closes; a late answer is not sent.
 */
export class DialogDispatcher implements Disposable {
  private dialogHandler: DialogHandler | undefined;
  private noticeHandler: NoticeHandler | undefined;
  private readonly open = new Map<string, CancellationTokenSource>();
  /** Dialogs the agent withdrew: their answer is not sent. */
  private readonly withdrawn = new Set<string>();

  constructor(
    private readonly send: (response: ExtensionUiResponse) => Promise<void>,
    private readonly onOutcome: (request: DialogRequest, outcome: DialogOutcome) => void = () => undefined,
  ) {}

  setDialogHandler(handler: DialogHandler | undefined): void {
    this.dialogHandler = handler;
  }

  setNoticeHandler(handler: NoticeHandler | undefined): void {
    this.noticeHandler = handler;
  }

  get pendingIds(): string[] {
    return [...this.open.keys()];
  }

  handle(request: ExtensionUiRequest): void {
    if (request.method === "cancel") {
      this.withdrawn.add(request.targetId);
      this.open.get(request.targetId)?.cancel();
      return;
    }
    if (!isDialogRequest(request)) {
      this.noticeHandler?.(request);
      return;
    }
    void this.answer(request);
  }

  private async answer(request: DialogRequest): Promise<void> {
    const source = new CancellationTokenSource();
    this.open.get(request.id)?.cancel();
    this.open.set(request.id, source);
    const timeout = "timeout" in request && typeof request.timeout === "number" && request.timeout > 0 ? request.timeout : undefined;
    let expired = false;
    const timer = timeout === undefined ? undefined : setTimeout(() => ((expired = true), source.cancel()), timeout);
    let answer: DialogAnswer;
    try {
      answer = this.dialogHandler ? await this.dialogHandler(request, source.token) : { cancelled: true };
    } catch {
      answer = { cancelled: true };
    } finally {
      if (timer) clearTimeout(timer);
      if (this.open.get(request.id) === source) this.open.delete(request.id);
      source.dispose();
    }
    if (expired || this.withdrawn.delete(request.id)) {
      this.onOutcome(request, { expired: true });
      return;
    }
    this.onOutcome(request, answer);
    // The agent that asked is gone: the answer has no one to reach (its exit is reported elsewhere).
    await this.send({ type: "extension_ui_response", id: request.id, ...answer } as ExtensionUiResponse).catch(() => undefined);
  }

  /** Cancel every open dialog, e.g. when the agent exits. */
  cancelAll(): void {
    for (const source of this.open.values()) source.cancel();
    this.open.clear();
  }

  dispose(): void {
    this.cancelAll();
    this.dialogHandler = undefined;
    this.noticeHandler = undefined;
  }
}

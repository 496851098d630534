import * as vscode from "vscode";
import type { CancellationToken } from "vscode-jsonrpc";
import type { DialogAnswer, DialogRequest, UiRequestOf } from "../../shared/protocol";
import { visibleText } from "../../shared/visible-text";
import { settings } from "../settings";
import type { EditorDialogs } from "./editor-dialog";
import { iconsAsText, notificationText } from "./plain-text";
import { QuestionQueue } from "./question-queue";
import { wholeQuestion, type WholeQuestion } from "./whole-question";
import { errorText } from "../../shared/error-text";

const cancelled: DialogAnswer = { cancelled: true };

/** The window's quick-input questions, shown one at a time (all sessions share the window). */
const questions = new QuestionQueue();

/**
 * Answers an extension's dialog with native VS Code UI; Escape or expiry answer `cancelled`.
 * Quick-input questions wait in the window's queue for the one shown before them.
 */
export function showNativeDialog(request: DialogRequest, token: CancellationToken, editors: EditorDialogs, showChange?: () => Promise<unknown>): Promise<DialogAnswer> {
  switch (request.method) {
    case "select":
      return questions.run(request.id, token, () => select(request, token, showChange), cancelled);
    case "confirm":
      return questions.run(request.id, token, () => confirm(request, token), cancelled);
    case "input":
      return questions.run(request.id, token, () => input(request, token), cancelled);
    case "editor":
      return editors.show(request, token);
  }
}

/** "Answer…" from elsewhere for a question already waiting in the queue: it is shown next. */
export function bringQuestionForward(requestId: string): boolean {
  return questions.promote(requestId);
}

async function select(request: UiRequestOf<"select">, token: CancellationToken, showChange?: () => Promise<unknown>): Promise<DialogAnswer> {
  const value = await pick(request.title, undefined, request.options, token, wholeQuestion(request), showChange);
  return value === undefined ? cancelled : { value };
}

type PickItem = vscode.QuickPickItem & { value?: string; showsChange?: true };

/** The row and the title button that open the change a question is about, the question staying open. */
const SHOW_CHANGE = "Show the change beside";
const showChangeButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon("diff"), tooltip: "Show the change beside (the question stays open)" };

/**
 * A quick pick of answers. A question too long for its one-line title (or with newlines or
 * hidden characters) is shown whole as rows above the answers; picking such a row does nothing.
 * A question about a file change has the change one key away: a row (and a title button) that
 * opens it as a diff beside, the question staying open.
 */
function pick(title: string, placeholder: string | undefined, options: string[], token: CancellationToken, whole?: WholeQuestion, showChange?: () => Promise<unknown>): Promise<string | undefined> {
  const quickPick = vscode.window.createQuickPick<PickItem>();
  quickPick.title = visibleText(whole ? whole.headline : title);
  quickPick.placeholder = whole ? "Read the whole question, then pick an answer" : placeholder === undefined ? undefined : visibleText(placeholder);
  const answers: PickItem[] = options.map((value, i) => ({ label: iconsAsText(whole ? whole.answers[i] : visibleText(value)), value }));
  const change: PickItem[] = showChange ? [{ label: SHOW_CHANGE, description: "the question stays open", alwaysShow: true, showsChange: true }] : [];
  quickPick.items = whole
    ? [...whole.rows.map((row): PickItem => ({ label: iconsAsText(row), alwaysShow: true })), ...change, { label: "Your answer", kind: vscode.QuickPickItemKind.Separator }, ...answers]
    : [...answers, ...(showChange ? [{ label: "", kind: vscode.QuickPickItemKind.Separator }, ...change] : [])];
  if (showChange) quickPick.buttons = [showChangeButton];
  if (whole && answers[0]) quickPick.activeItems = [answers[0]];
  const openChange = () => void showChange?.().catch((error: unknown) => void vscode.window.showErrorMessage(`Pi: the change could not be shown: ${notificationText(errorText(error))}`));
  quickPick.ignoreFocusOut = true;
  return shownUntilHidden<string | undefined>(quickPick, token, undefined, (answer) => [
    quickPick.onDidTriggerButton(openChange),
    quickPick.onDidAccept(() => {
      if (quickPick.selectedItems[0]?.showsChange) return openChange();
      const value = quickPick.selectedItems[0]?.value;
      if (value !== undefined) answer(value);
    }),
  ]);
}


async function confirm(request: UiRequestOf<"confirm">, token: CancellationToken): Promise<DialogAnswer> {
  // A modal message cannot be closed when the request times out: use it only without a timeout.
  // (Its message and detail wrap, so a long question shows whole there too.)
  if (settings.confirmStyle === "modal" && !request.timeout) {
    const choice = await vscode.window.showInformationMessage(notificationText(request.title), { modal: true, detail: visibleText(request.message) }, "Yes", "No");
    return choice === undefined ? cancelled : { confirmed: choice === "Yes" };
  }
  const choice = await pick(request.title, request.message, ["Yes", "No"], token, wholeQuestion(request));
  return choice === undefined ? cancelled : { confirmed: choice === "Yes" };
}

async function input(request: UiRequestOf<"input">, token: CancellationToken): Promise<DialogAnswer> {
  const box = vscode.window.createInputBox();
  box.title = visibleText(request.title);
  box.placeholder = request.placeholder === undefined ? undefined : visibleText(request.placeholder);
  box.ignoreFocusOut = true;
  return shownUntilHidden<DialogAnswer>(box, token, cancelled, (answer) => [box.onDidAccept(() => answer({ value: box.value }))]);
}

/**
 * Shows a quick input until it hides: on an answer (`listen` calls `answer`), Escape, lost focus
 * or the agent's cancellation. Then its listeners and the input go, and the answer resolves
 * (`none` when there was none).
 */
function shownUntilHidden<T>(widget: vscode.QuickInput, token: CancellationToken, none: T, listen: (answer: (value: T) => void) => vscode.Disposable[]): Promise<T> {
  return new Promise((resolve) => {
    let result = none;
    const subs = [
      ...listen((value) => {
        result = value;
        widget.hide();
      }),
      widget.onDidHide(() => {
        for (const sub of subs) sub.dispose();
        widget.dispose();
        resolve(result);
      }),
      token.onCancellationRequested(() => widget.hide()),
    ];
    widget.show();
  });
}

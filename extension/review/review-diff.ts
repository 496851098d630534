/**
 * The review's native diff: the file before the agent's changes (served read-only from the
 * review under the `pi-review` scheme) ↔ the file now (the real file, editable, with the hunk
 * lenses). A file that is gone shows an empty right side.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { Lifetime } from "../lifetime";
import { textOf } from "./file-change";
import { hasUnsavedText, readCurrent } from "./review-io";
import type { ReviewState } from "./review-state";

export const REVIEW_SCHEME = "pi-review";

const beforeUri = (file: string) => vscode.Uri.file(file).with({ scheme: REVIEW_SCHEME, query: "before" });
const goneUri = (file: string) => vscode.Uri.file(file).with({ scheme: REVIEW_SCHEME, query: "none" });

export function registerReviewContent(state: ReviewState): vscode.Disposable {
  const lifetime = new Lifetime();
  const changed = lifetime.add(new vscode.EventEmitter<vscode.Uri>());
  lifetime.add(
    vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent(uri) {
        if (uri.query !== "before") return "";
        const change = state.get(uri.fsPath);
        // Out of the review: the file as it is, both sides alike (an empty left side would show it all as added).
        if (!change) return textOf(readCurrent(uri.fsPath)) ?? "";
        if (change.before === undefined) return "(its content before the agent's change was not recorded)";
        return textOf(change.before) ?? "(binary content)";
      },
    }),
  );
  // Keep moves the before: open diffs follow; the diff of a file with nothing left to review closes.
  const settled = new SettledDiffs(state);
  lifetime.add(
    state.onDidChange(() => {
      void settled.close();
      for (const document of vscode.workspace.textDocuments) if (document.uri.scheme === REVIEW_SCHEME) changed.fire(document.uri);
    }),
  );
  // A diff kept open for its buffer's text (an Undo written into it and saved a moment later, a
  // buffer not yet reloaded from the disk) closes once the buffer and the disk agree.
  const again = (document: vscode.TextDocument) => settled.waitingFor(document.uri.fsPath) && void settled.close();
  lifetime.add(vscode.workspace.onDidSaveTextDocument(again));
  lifetime.add(vscode.workspace.onDidChangeTextDocument((e) => again(e.document)));
  // A tab's dirty mark can change after both (it lags the buffer): its change is an event of its own.
  lifetime.add(
    vscode.window.tabGroups.onDidChangeTabs((e) => {
      if (e.changed.some((tab) => tab.input instanceof vscode.TabInputTextDiff && settled.waitingFor(tab.input.modified.fsPath))) void settled.close();
    }),
  );
  return lifetime;
}

/**
 * The review's diff tabs of files no longer under review: closed, the active one giving way to the
 * file itself. One whose buffer differs from the disk (the diff's own revert arrow, an Undo not yet
 * saved) stays until they agree, rather than losing the text or asking to save.
 */
class SettledDiffs {
  /** Files whose settled diff stays open for its buffer's text. */
  private readonly waiting = new Set<string>();

  constructor(private readonly state: ReviewState) {}

  waitingFor(file: string): boolean {
    return this.waiting.has(file);
  }

  async close(): Promise<void> {
    this.waiting.clear();
    const settled: vscode.Tab[] = [];
    for (const tab of vscode.window.tabGroups.all.flatMap((group) => group.tabs)) {
      if (!(tab.input instanceof vscode.TabInputTextDiff) || tab.input.original.scheme !== REVIEW_SCHEME || this.state.has(tab.input.original.fsPath)) continue;
      if (hasUnsavedText(tab.input.modified.fsPath)) this.waiting.add(tab.input.modified.fsPath);
      else settled.push(tab);
    }
    if (settled.length === 0) return;
    const shown = settled.find((tab) => tab.isActive && tab.group.isActive);
    const file = shown && (shown.input as vscode.TabInputTextDiff).original.fsPath;
    await vscode.window.tabGroups.close(settled, true);
    // Never with the focus: this can run a while after the user's action (on a save or a reload),
    // when a quick pick or another editor has it.
    if (file && fs.existsSync(file)) await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true, preserveFocus: true });
  }
}

export function diffTitle(file: string): string {
  return `${path.basename(file)} (Pi: before ↔ now)`;
}

/** Opens the file's diff; `line` (0-based, in the file now) is revealed when given. */
export async function openReviewDiff(file: string, line?: number): Promise<void> {
  const right = fs.existsSync(file) ? vscode.Uri.file(file) : goneUri(file);
  const options: vscode.TextDocumentShowOptions = { preview: true, ...(line !== undefined ? { selection: new vscode.Range(line, 0, line, 0) } : {}) };
  await vscode.commands.executeCommand("vscode.diff", beforeUri(file), right, diffTitle(file), options);
}

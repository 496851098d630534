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
        if (!change) return "";
        if (change.before === undefined) return "(its content before the agent's change was not recorded)";
        return textOf(change.before) ?? "(binary content)";
      },
    }),
  );
  // Keep moves the before: open diffs follow.
  lifetime.add(
    state.onDidChange(() => {
      for (const document of vscode.workspace.textDocuments) if (document.uri.scheme === REVIEW_SCHEME) changed.fire(document.uri);
    }),
  );
  return lifetime;
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

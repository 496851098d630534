/**
 * Keep / Undo above each of the agent's hunks in a file under review (the diff's right side, or
 * the file's own editor). A hunk the user changed since shows why it cannot be undone.
 */
import * as vscode from "vscode";
import { Lifetime } from "../lifetime";
import { changeHunks, textOf } from "./file-change";
import { placeHunk, type Hunk } from "./hunks";
import type { ReviewState } from "./review-state";

/** The argument of pi.review.keepHunk / undoHunk from a lens. */
export interface HunkTarget {
  path: string;
  hunk: Hunk;
}

export interface PlacedHunk {
  hunk: Hunk;
  /** 0-based line in the file now. */
  line: number;
  /** Lines it spans there (at least 1, for a hunk that only removed lines). */
  span: number;
  conflict: boolean;
}

/** The agent's hunks of a file, where they are in `currentText`. */
export function placedHunks(state: ReviewState, path: string, currentText: string): PlacedHunk[] {
  const change = state.get(path);
  const agent = change && textOf(change.agent);
  if (!change || agent === undefined) return [];
  return changeHunks(change).map((hunk) => {
    const place = placeHunk(hunk, agent, currentText);
    return { hunk, line: place.line, span: Math.max(1, hunk.newLines.length), conflict: place.conflict === true };
  });
}

const counts = (hunk: Hunk) => [hunk.newLines.length ? `+${hunk.newLines.length}` : "", hunk.oldLines.length ? `−${hunk.oldLines.length}` : ""].filter(Boolean).join(" ");

/**
 * The Keep / Undo lenses on the agent's hunks. The provider is registered only while there is a
 * change to review: a code lens provider for every file is asked by the workbench for each editor
 * shown and again after each edit, in a window where Pi has changed nothing too (#31).
 */
export function registerReviewLenses(state: ReviewState): vscode.Disposable {
  const lifetime = new Lifetime();
  const changed = lifetime.add(new vscode.EventEmitter<void>());
  let provider: vscode.Disposable | undefined;
  const follow = () => {
    if (state.files().length === 0) {
      provider?.dispose();
      provider = undefined;
    } else {
      provider ??= registerProvider(state, changed.event);
    }
    changed.fire();
  };
  lifetime.add(state.onDidChange(follow));
  lifetime.add({ dispose: () => provider?.dispose() });
  follow();
  return lifetime;
}

function registerProvider(state: ReviewState, onDidChangeCodeLenses: vscode.Event<void>): vscode.Disposable {
  return vscode.languages.registerCodeLensProvider({ scheme: "file" }, {
    onDidChangeCodeLenses,
    provideCodeLenses(document) {
      const path = document.uri.fsPath;
      if (!state.has(path)) return [];
      return placedHunks(state, path, document.getText()).flatMap(({ hunk, line, conflict }) => {
        const at = new vscode.Range(Math.min(line, document.lineCount - 1), 0, Math.min(line, document.lineCount - 1), 0);
        const target: HunkTarget = { path, hunk };
        const keep = new vscode.CodeLens(at, { title: "$(check) Keep", tooltip: "Keep this change of the agent (ctrl+k ctrl+y)", command: "pi.review.keepHunk", arguments: [target] });
        if (conflict) {
          return [keep, new vscode.CodeLens(at, { title: "$(warning) Edited since the agent's change: cannot be undone alone", command: "" })];
        }
        const undo = new vscode.CodeLens(at, { title: "$(discard) Undo", tooltip: "Undo this change of the agent (ctrl+k ctrl+z)", command: "pi.review.undoHunk", arguments: [target] });
        return [keep, undo, new vscode.CodeLens(at, { title: `Pi: ${counts(hunk)}`, command: "" })];
      });
    },
  });
}

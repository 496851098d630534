/**
 * Shows what a rewind will do before it is applied: one multi-file diff (VS Code's changes
 * editor), each file as it is now on the left and as the rewind leaves it on the right. The
 * checkpoint side is served read-only from the store under the `pi-checkpoint` scheme.
 */
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { RestoreStep } from "../../shared/checkpoints/schema";
import { readObject } from "../../shared/node/checkpoint-store";

export const CHECKPOINT_SCHEME = "pi-checkpoint";
/** The query of a checkpoint URI for "no file". */
const NO_FILE = "none";

export function registerCheckpointContent(store: () => string | undefined): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
    provideTextDocumentContent(uri) {
      const dir = store();
      if (uri.query === NO_FILE || !dir) return "";
      return readObject(dir, uri.query)?.toString("utf8") ?? "(this checkpoint was pruned)";
    },
  });
}

function checkpointUri(absPath: string, hash: string | undefined): vscode.Uri {
  return vscode.Uri.file(absPath).with({ scheme: CHECKPOINT_SCHEME, query: hash ?? NO_FILE });
}

/** [label, now, after the rewind] for each file the rewind changes. */
export function diffResources(steps: readonly RestoreStep[]): [vscode.Uri, vscode.Uri, vscode.Uri][] {
  return steps.flatMap((step): [vscode.Uri, vscode.Uri, vscode.Uri][] => {
    if (step.action === "unavailable") return [];
    const file = vscode.Uri.file(step.path);
    const now = fs.existsSync(step.path) ? file : checkpointUri(step.path, undefined);
    const after = checkpointUri(step.path, step.action === "write" ? step.hash : undefined);
    return [[file, now, after]];
  });
}

/** Opens the diff; the returned disposable closes it (once the user decided, it would only go stale). */
export async function showRewindDiff(title: string, steps: readonly RestoreStep[]): Promise<vscode.Disposable> {
  const resources = diffResources(steps);
  if (resources.length > 0) {
    try {
      await vscode.commands.executeCommand("vscode.changes", title, resources);
    } catch {
      // No changes editor: the first file's diff.
      const [, left, right] = resources[0];
      await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: true });
    }
  }
  return {
    dispose: () => {
      const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.label.startsWith(title));
      if (tabs.length > 0) void vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
    },
  };
}

/**
 * The Changes view (shown while there are changes to review): each file an agent created, edited
 * or deleted, with its file icon and +/- lines; a click opens its diff, the row's actions Undo
 * and Keep it, the title's Keep All / Undo All. Labels and tooltips are plain text (never
 * markdown), so a file name shows as written.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { Lifetime } from "../lifetime";
import { changeCounts, changeKind, type FileChange } from "./file-change";
import type { ReviewState } from "./review-state";

export const CHANGES_VIEW_ID = "pi.changes";

const kindText = { created: "created", deleted: "deleted", modified: "edited" } as const;

/** The path relative to the workspace, with / (a file outside it: its full path). */
function shownPath(file: string): string {
  const relative = vscode.workspace.asRelativePath(file, false);
  return relative === file ? file : relative.split(path.sep).join("/");
}

export function describeChange(change: FileChange): { counts: string; spoken: string } {
  const kind = kindText[changeKind(change)];
  const counts = changeCounts(change);
  if (!counts) return { counts: change.before === undefined ? "not recorded" : "binary", spoken: `${kind}, ${change.before === undefined ? "its earlier content not recorded" : "binary"}` };
  return { counts: `+${counts.added} −${counts.removed}`, spoken: `${kind}, ${counts.added} lines added, ${counts.removed} removed` };
}

export class ChangesView implements vscode.TreeDataProvider<FileChange>, vscode.Disposable {
  private readonly lifetime = new Lifetime();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly view: vscode.TreeView<FileChange>;

  constructor(private readonly state: ReviewState) {
    this.lifetime.add(this.changeEmitter);
    this.view = this.lifetime.add(vscode.window.createTreeView(CHANGES_VIEW_ID, { treeDataProvider: this }));
    this.lifetime.add(state.onDidChange(() => this.refresh()));
    // A change while the view is hidden (no changes: its `when` is false) may not reach its rows: redraw on showing.
    this.lifetime.add(this.view.onDidChangeVisibility((e) => e.visible && this.changeEmitter.fire()));
    this.refresh();
  }

  private refresh(): void {
    const files = this.state.files();
    const { added, removed } = this.state.summary();
    this.view.description = files.length === 0 ? "" : `${files.length} file${files.length === 1 ? "" : "s"} changed  +${added} −${removed}`;
    this.view.message = files.length === 0 ? "No changes to review." : "";
    void vscode.commands.executeCommand("setContext", "pi.hasChanges", files.length > 0);
    // For `resourcePath in pi.reviewPaths` (the diff's title actions, the hunk keys).
    void vscode.commands.executeCommand("setContext", "pi.reviewPaths", files.map((f) => vscode.Uri.file(f.path).path));
    // A diff's own arrows go from change to change in its file; ours go to another file only when there is one.
    void vscode.commands.executeCommand("setContext", "pi.reviewManyFiles", files.length > 1);
    this.changeEmitter.fire();
  }

  getChildren(node?: FileChange): FileChange[] {
    return node ? [] : this.state.files();
  }

  getTreeItem(change: FileChange): vscode.TreeItem {
    const shown = shownPath(change.path);
    const item = new vscode.TreeItem(vscode.Uri.file(change.path), vscode.TreeItemCollapsibleState.None);
    item.id = change.path;
    item.label = path.basename(change.path);
    const { counts, spoken } = describeChange(change);
    const folder = path.dirname(shown);
    item.description = `${counts}${folder === "." ? "" : `  ${folder}`}`;
    item.tooltip = `${shown}\n${spoken}`;
    item.accessibilityInformation = { label: `${shown}, ${spoken}` };
    item.contextValue = change.before === undefined ? "piChange.unrecorded" : `piChange.${changeKind(change)}`;
    item.command = { command: "pi.review.openDiff", title: "Open Changes", arguments: [change] };
    return item;
  }

  dispose(): void {
    this.lifetime.dispose();
  }
}

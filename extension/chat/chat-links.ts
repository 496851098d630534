import * as path from "node:path";
import * as vscode from "vscode";
import { realPathOf } from "../../shared/node/real-path";
import { resolveWorkspacePath } from "../host-tools/workspace-paths";
import { notificationText, quickPickText } from "../ui/plain-text";
import { beforeAndAfter, fileChangeOf } from "./edit-diff";

const externalSchemes = /^(https?|mailto):/i;
const anyScheme = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Links and files the chat asks to open. Web links open in the browser after a confirmation;
 * other schemes (command:, vscode:, file:, javascript:, …) are refused; a relative path opens
 * the workspace file. A link is the model's text: one that leads outside the workspace (an absolute
 * path, `..`, a symlink out) opens only after the user saw the whole path and said so.
 */
export class ChatLinks implements vscode.Disposable, vscode.TextDocumentContentProvider {
  static readonly scheme = "pi-diff";
  private readonly documents = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private counter = 0;

  constructor(private readonly log?: vscode.LogOutputChannel) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(ChatLinks.scheme, this);
  }

  async openLink(href: string): Promise<void> {
    if (externalSchemes.test(href)) return this.confirmExternal(href);
    if (anyScheme.test(href) || href.startsWith("//")) {
      this.log?.warn(`Refused to open a chat link with scheme ${href.split(":")[0]}: ${href.slice(0, 200)}`);
      return;
    }
    const match = /^([^#?]*)(?:#L?(\d+))?/.exec(href);
    if (!match?.[1]) return;
    await this.openFile(decodeURIComponent(match[1]), match[2] ? Number(match[2]) : undefined);
  }

  /** Asks before opening a file outside the workspace, showing where it really leads (a symlink's target). */
  private async confirmOutside(file: string): Promise<boolean> {
    let real = file;
    try {
      real = realPathOf(file);
    } catch {
      // A link loop: the path as named is all there is to show.
    }
    const where = real === file ? file : `${file} → ${real}`;
    const open = { label: "Open file", detail: quickPickText(where) };
    const choice = await vscode.window.showQuickPick([open], { title: "Open a file outside the workspace? The agent named it.", placeHolder: quickPickText(where) });
    if (choice !== open) this.log?.info(`Did not open a chat link outside the workspace: ${file.slice(0, 300)}`);
    return choice === open;
  }

  /** A web link from the agent opens only once the user says so (or is copied instead). */
  private async confirmExternal(href: string): Promise<void> {
    const open = { label: "Open link", detail: quickPickText(href) };
    const copy = { label: "Copy link", detail: quickPickText(href) };
    const choice = await vscode.window.showQuickPick([open, copy], { title: "Open a link from the chat?", placeHolder: quickPickText(href) });
    if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(href, true));
    else if (choice === copy) await vscode.env.clipboard.writeText(href);
  }

  /** A file the chat names (a link, a tool card's path): one outside the workspace after asking. */
  async openFile(file: string, line?: number): Promise<void> {
    const uri = resolveInWorkspace(file);
    if (!insideWorkspace(file) && !(await this.confirmOutside(uri.fsPath))) return;
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      void vscode.window.showWarningMessage(`Pi: ${notificationText(file)} does not exist.`);
      return;
    }
    const selection = line ? new vscode.Range(line - 1, 0, line - 1, 0) : undefined;
    await vscode.window.showTextDocument(uri, { preview: true, selection });
  }

  /** Shows an edit or write tool call as a diff editor of two read-only documents. */
  /**
   * The diff of a call's change; `asked`: a call not run yet, shown beside its permission question
   * (which keeps the focus): the file now against the file as the call would leave it.
   */
  async openDiff(name: string, args: unknown, asked = false): Promise<boolean> {
    const change = fileChangeOf(name, args);
    if (!change) return false;
    const uri = resolveInWorkspace(change.path);
    const current = await vscode.workspace.fs.readFile(uri).then((bytes) => new TextDecoder().decode(bytes), () => undefined);
    const { before, after } = beforeAndAfter(change, current, asked);
    const id = this.counter++;
    const base = path.basename(change.path);
    const left = vscode.Uri.from({ scheme: ChatLinks.scheme, path: `/${id}/before/${base}` });
    const right = vscode.Uri.from({ scheme: ChatLinks.scheme, path: `/${id}/after/${base}` });
    this.documents.set(left.path, before);
    this.documents.set(right.path, after);
    while (this.documents.size > 40) this.documents.delete(this.documents.keys().next().value as string);
    await vscode.commands.executeCommand("vscode.diff", left, right, `${base} (Pi: ${name})`, { preview: true, preserveFocus: asked });
    return true;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.documents.get(uri.path) ?? "";
  }

  dispose(): void {
    this.registration.dispose();
    this.documents.clear();
  }
}

/** Whether `file` (relative to the first folder, or absolute) is a workspace file, symlinks followed. */
function insideWorkspace(file: string): boolean {
  try {
    resolveWorkspacePath(file, (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath));
    return true;
  } catch {
    return false;
  }
}

export function resolveInWorkspace(file: string): vscode.Uri {
  if (path.isAbsolute(file)) return vscode.Uri.file(file);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder ? vscode.Uri.joinPath(folder, file) : vscode.Uri.file(path.resolve(file));
}

import * as path from "node:path";
import * as vscode from "vscode";
import { notificationText } from "../ui/plain-text";
import { beforeAndAfter, fileChangeOf } from "./edit-diff";

const externalSchemes = /^(https?|mailto):/i;
const anyScheme = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Links and files the chat asks to open. Web links open in the browser after a confirmation;
 * other schemes (command:, vscode:, file:, javascript:, …) are refused; a relative path opens
 * the workspace file.
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
    if (match?.[1]) await this.openFile(decodeURIComponent(match[1]), match[2] ? Number(match[2]) : undefined);
  }

  /** A web link from the agent opens only once the user says so (or is copied instead). */
  private async confirmExternal(href: string): Promise<void> {
    const open = { label: "Open link", detail: href };
    const copy = { label: "Copy link", detail: href };
    const choice = await vscode.window.showQuickPick([open, copy], { title: "Open a link from the chat?", placeHolder: href });
    if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(href, true));
    else if (choice === copy) await vscode.env.clipboard.writeText(href);
  }

  async openFile(file: string, line?: number): Promise<void> {
    const uri = resolveInWorkspace(file);
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

export function resolveInWorkspace(file: string): vscode.Uri {
  if (path.isAbsolute(file)) return vscode.Uri.file(file);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder ? vscode.Uri.joinPath(folder, file) : vscode.Uri.file(path.resolve(file));
}

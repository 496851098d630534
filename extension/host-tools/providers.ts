/**
 * Calls of VS Code's provider commands (vscode.executeDefinitionProvider, ...) for the tools:
 * the document is opened first (language servers work on open documents), and when it was not
 * open before, an empty answer is retried for a while, because the language extension may still
 * be activating or its server starting. Cancellable; reports the wait through update().
 */
import * as vscode from "vscode";
import type { HostToolContext } from "../../shared/rpc/host-tool-registry";
import { displayOf, hiddenFromAgents, loadedDocument, openWorkspaceDocument, positionIn, resolveFile } from "./editor-workspace";
import { reallyReadable } from "./readable-for-agent";
import { raceCancellation } from "./tool";

/** How long a just-opened document's language server gets to give a first non-empty answer. */
export const warmUpMs = 15_000;
const retryEveryMs = 300;

export interface OpenedDocument {
  document: vscode.TextDocument;
  path: string;
  /** It was not loaded before this call. */
  justOpened: boolean;
}

export async function openForProviders(input: string, context: HostToolContext): Promise<OpenedDocument> {
  const file = resolveFile(input);
  const justOpened = loadedDocument(file.uri) === undefined;
  // Loaded or not, as the file really is (editor-workspace.ts).
  const document = await raceCancellation(openWorkspaceDocument(file.uri, file.path), context.token);
  return { document, path: file.path, justOpened };
}

const isEmpty = (value: unknown): boolean => value === undefined || value === null || (Array.isArray(value) && value.length === 0);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a provider command; for a just-opened document retries an empty answer until `warmUpMs`. */
export async function runProvider<T>(command: string, args: unknown[], opened: OpenedDocument, context: HostToolContext, what: string): Promise<T | undefined> {
  const warmingUp = opened.justOpened && opened.document.languageId !== "plaintext";
  const deadline = Date.now() + (warmingUp ? warmUpMs : 0);
  let told = false;
  for (;;) {
    const result = await raceCancellation(vscode.commands.executeCommand<T | undefined>(command, ...args), context.token);
    if (!isEmpty(result) || Date.now() >= deadline) return result;
    if (!told) {
      told = true;
      context.update({ content: [{ type: "text", text: `Waiting for the ${opened.document.languageId} language support to answer ${what} for ${opened.path}…` }] });
    }
    await raceCancellation(sleep(retryEveryMs), context.token);
  }
}

/** `{path, line, character}` of the position tools as a document and a VS Code position. */
export async function openAt(args: { path: string; line: number; character: number }, context: HostToolContext): Promise<OpenedDocument & { position: vscode.Position }> {
  const opened = await openForProviders(args.path, context);
  return { ...opened, position: positionIn(opened.document, args.line, args.character) };
}

/** The text of the line a location starts on, for the model to see what it points at. */
export class LinePreviews {
  private readonly documents = new Map<string, Promise<vscode.TextDocument | undefined>>();

  async lineAt(uri: vscode.Uri, line: number): Promise<string | undefined> {
    // A file whose name leads out of the workspace (a link), or outside one that is not that file itself: not shown.
    if (hiddenFromAgents(uri) || !reallyReadable(uri)) return undefined;
    const key = uri.toString();
    let document = this.documents.get(key);
    if (!document) {
      // A workspace file is opened (or taken loaded) as it really is (editor-workspace.ts); of others only one loaded is shown.
      const shown = displayOf(uri);
      document = shown === undefined ? Promise.resolve(loadedDocument(uri)) : openWorkspaceDocument(uri, shown).catch(() => undefined);
      this.documents.set(key, document);
    }
    const doc = await document;
    if (!doc || line >= doc.lineCount) return undefined;
    const text = doc.lineAt(line).text.trim();
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  }
}

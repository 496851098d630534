/**
 * The workspace as the editor tools see it: model-written paths to URIs (refusing anything
 * outside the workspace folders), URIs back to the paths the tools show, loaded documents.
 */
import * as vscode from "vscode";
import { hiddenSecretOf } from "../../shared/node/sandbox/protected-match";
import { settings } from "../settings";
import { contentHash } from "./document-text";
import { holdsVerified, readVerified, verifiedDocument } from "./verified-file";
import { loadedThroughCommandLink } from "../save-guard/save-guard";
import { displayPath, hiddenEnv, realFolders, resolveWorkspacePath, type HiddenIn } from "./workspace-paths";

/** File-system paths of the workspace folders on disk (first = base of relative paths). */
export function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);
}

export interface ResolvedFile {
  uri: vscode.Uri;
  /** As the tools show it: workspace-relative with forward slashes. */
  path: string;
}

/**
 * The file a tool argument names; throws a message for the model when it is outside the workspace,
 * or in a home secret the agents' sandbox hides (the editor reads and writes outside it).
 */
export function resolveFile(input: string): ResolvedFile {
  const resolved = resolveWorkspacePath(input, workspaceFolderPaths(), hiddenIn());
  return { uri: vscode.Uri.file(resolved.absPath), path: resolved.display };
}

/**
 * A file in a home secret the agents' sandbox hides (`~/.ssh`, …): the editor tools show none of
 * its text (a preview line, the user's selection in it), whoever opened it.
 */
export function hiddenFromAgents(uri: vscode.Uri): boolean {
  const hidden = hiddenIn();
  return uri.scheme === "file" && hidden !== undefined && hiddenSecretOf(uri.fsPath, hiddenEnv(hidden)) !== undefined;
}

/** The home whose secrets the agents' sandbox hides; none under full-access. */
export function hiddenIn(): HiddenIn | undefined {
  return settings.sandboxMode === "full-access" ? undefined : { home: process.env.HOME, agentDir: process.env.PI_CODING_AGENT_DIR };
}

/** The path a tool shows for a URI, or undefined for one outside the workspace (or not a file). */
export function displayOf(uri: vscode.Uri): string | undefined {
  return uri.scheme === "file" ? displayPath(uri.fsPath, workspaceFolderPaths()) : undefined;
}

/** A workspace file's bytes from disk, read as it really is when opened (verified-file.ts). */
export function readWorkspaceFile(uri: vscode.Uri, shown: string): Promise<Uint8Array> {
  return readVerified(uri.fsPath, realFolders(workspaceFolderPaths()), hiddenIn(), shown);
}

/**
 * The document of a workspace file, loaded if it is not: VS Code's own open follows links, so the
 * file is read as it really is first (verified-file.ts) and the document must hold that text; one
 * that does not came from elsewhere (a link flipped in between) and is not used.
 */
export async function openWorkspaceDocument(uri: vscode.Uri, shown: string): Promise<vscode.TextDocument> {
  const loaded = await loadedWorkspaceDocument(uri, shown);
  if (loaded === "stale") throw new Error(`${shown} in the editor is not what the file holds now (changed on disk, or a link on its way replaced); not used. Try again once nothing changes it.`);
  if (loaded) return loaded;
  return verifiedDocument(() => readWorkspaceFile(uri, shown), () => Promise.resolve(vscode.workspace.openTextDocument(uri)), shown, decodeAs);
}

/** `bytes` decoded as `document` was (its encoding). */
export const decodeAs = (bytes: Uint8Array, document: vscode.TextDocument) => Promise.resolve(vscode.workspace.decode(bytes, { encoding: document.encoding }));

/**
 * The document of a workspace file VS Code has loaded, if the tools may use it (verified-file.ts
 * holdsVerified: unsaved changes, or the text the file really holds); "stale" if it is loaded but
 * not that (its file should be read from disk instead, or the call refused).
 */
export async function loadedWorkspaceDocument(uri: vscode.Uri, shown: string): Promise<vscode.TextDocument | "stale" | undefined> {
  const loaded = loadedDocument(uri);
  if (!loaded) return undefined;
  if (loadedThroughCommandLink(uri)) return "stale"; // its text came through a command's link (save-guard.ts)
  return (await holdsVerified(loaded, () => readWorkspaceFile(uri, shown), (bytes) => decodeAs(bytes, loaded))) ? loaded : "stale";
}

/**
 * The document of `uri` if VS Code has it loaded (open in an editor, or opened by an extension), as
 * it is: for a tool's use of its text, loadedWorkspaceDocument.
 */
export function loadedDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}

/** What the read and edit tools report about a document's state. */
export interface DocumentStamp {
  path: string;
  uri: string;
  languageId: string;
  /** VS Code's document version: it grows with every change of the buffer. */
  version: number;
  /** The buffer has changes not saved to disk. */
  isDirty: boolean;
  hash: string;
  lineCount: number;
  eol: "LF" | "CRLF";
}

export function stampOf(document: vscode.TextDocument, path: string): DocumentStamp {
  return {
    path,
    uri: document.uri.toString(),
    languageId: document.languageId,
    version: document.version,
    isDirty: document.isDirty,
    hash: contentHash(document.getText()),
    lineCount: document.lineCount,
    eol: document.eol === vscode.EndOfLine.CRLF ? "CRLF" : "LF",
  };
}

/** A position argument (zero-based, as in LSP) checked against the document. */
export function positionIn(document: vscode.TextDocument, line: number, character: number): vscode.Position {
  if (line >= document.lineCount) throw new Error(`line ${line} is beyond the last line of the document (${document.lineCount - 1}; positions are zero-based).`);
  return new vscode.Position(line, Math.min(character, document.lineAt(line).text.length));
}

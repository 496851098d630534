/**
 * Reading a file as the user sees it and writing Keep/Undo results back.
 *
 * Writes go through a WorkspaceEdit when VS Code has the document open: the buffer is what the
 * user sees (unsaved edits stay, Ctrl+Z brings the agent's change back), and it is saved after
 * unless it held unsaved changes before. A file that is not open is written with workspace.fs:
 * no hidden document is opened and no dirty buffer is left behind. Deleting and re-creating a
 * file are WorkspaceEdit file operations either way (they join the editor's undo too). VS Code
 * opens the path by name, so each write runs with the sandboxed commands held still
 * (save-guard.ts: a link one made on the way is moved aside first).
 */
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { Content } from "./file-change";
import { whileSandboxHeld } from "../save-guard/save-guard";

function openDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === path);
}

/**
 * The file now: an open document's buffer when it has unsaved changes (what the user sees), else
 * the disk (a saved document may not have reloaded an agent's write yet); null when there is none.
 */
export function readCurrent(path: string): Content {
  const document = openDocument(path);
  if (document?.isDirty) return Buffer.from(document.getText(), "utf8");
  try {
    return fs.readFileSync(path);
  } catch {
    return null;
  }
}

/**
 * Whether the open document's buffer holds what the disk does not. Read from the text, not from
 * `isDirty` alone: VS Code can report a buffer's change before it marks the buffer dirty (the
 * diff's revert arrow), and a tab closed in between loses the change.
 */
export function hasUnsavedText(path: string): boolean {
  const document = openDocument(path);
  if (!document) return false;
  if (document.isDirty) return true;
  try {
    return document.getText() !== fs.readFileSync(path, "utf8");
  } catch {
    return true;
  }
}

/** Paths written here lately: the file watcher does not take them for an agent's change. */
const ownWrites = new Map<string, number>();
export const OWN_WRITE_MS = 3000;

export function isOwnWrite(path: string, now = Date.now()): boolean {
  const at = ownWrites.get(path);
  return at !== undefined && now - at < OWN_WRITE_MS;
}

async function applyAndSave(edit: vscode.WorkspaceEdit, document: vscode.TextDocument | undefined): Promise<void> {
  const wasDirty = document?.isDirty ?? false;
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error("VS Code refused the edit");
  if (document && !wasDirty && document.isDirty && !(await document.save())) throw new Error("the file could not be saved");
}

/**
 * Replaces the lines `expected` from `line` (0-based) with `lines` (each with its terminator);
 * refuses when the document does not hold `expected` there (it changed meanwhile).
 */
export function replaceLines(path: string, line: number, expected: readonly string[], lines: readonly string[]): Promise<void> {
  return whileSandboxHeld([path], () => replaceLinesNow(path, line, expected, lines));
}

async function replaceLinesNow(path: string, line: number, expected: readonly string[], lines: readonly string[]): Promise<void> {
  ownWrites.set(path, Date.now());
  const document = openDocument(path) ?? (await vscode.workspace.openTextDocument(vscode.Uri.file(path)));
  const end = line + expected.length < document.lineCount ? new vscode.Position(line + expected.length, 0) : document.lineAt(document.lineCount - 1).range.end;
  const range = new vscode.Range(new vscode.Position(line, 0), end);
  if (document.getText(range) !== expected.join("")) throw new Error(`${vscode.workspace.asRelativePath(path)} changed meanwhile: nothing was changed, try again`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, range, lines.join(""));
  await applyAndSave(edit, document);
}

/** Makes the file hold `content` (null: no file). */
export function writeContent(path: string, content: Content): Promise<void> {
  return whileSandboxHeld([path], () => writeContentNow(path, content));
}

async function writeContentNow(path: string, content: Content): Promise<void> {
  ownWrites.set(path, Date.now());
  const uri = vscode.Uri.file(path);
  const document = openDocument(path);
  const exists = fs.existsSync(path);
  const edit = new vscode.WorkspaceEdit();
  if (content === null) {
    if (!exists) return;
    edit.deleteFile(uri, { ignoreIfNotExists: true });
    return applyAndSave(edit, undefined);
  }
  if (!exists) {
    edit.createFile(uri, { overwrite: true, contents: content });
    return applyAndSave(edit, undefined);
  }
  if (document) {
    edit.replace(uri, new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end), content.toString("utf8"));
    return applyAndSave(edit, document);
  }
  await vscode.workspace.fs.writeFile(uri, content);
}

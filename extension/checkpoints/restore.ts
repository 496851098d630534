/**
 * Puts files back as a restore plan says (restore-files.ts checks and applies each step). A
 * document VS Code has open with unsaved changes gets the content through an edit and a save, so
 * the editor and the disk agree; other files are written directly.
 */
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { RestoreStep } from "../../shared/checkpoints/schema";
import { readObject } from "../../shared/node/checkpoint-store";
import { restoreFiles, writeToDisk, type RestoreResult } from "./restore-files";
import { whileSandboxHeld } from "../save-guard/save-guard";

export type { RestoreResult } from "./restore-files";

function openDocument(absPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === absPath);
}

async function writeBack(absPath: string, content: Buffer, realRoot: string): Promise<void> {
  const document = openDocument(absPath);
  if (document?.isDirty) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), content.toString("utf8"));
    if ((await vscode.workspace.applyEdit(edit)) && (await document.save())) return;
  }
  await writeToDisk(absPath, content, realRoot);
}

/**
 * Restores the steps inside the session's workspace folder; refused steps are listed in `failed`.
 * Checked, then written and deleted by name: with the sandboxed commands held still meanwhile
 * (save-guard.ts), none can put a link on a path between the check and the act.
 */
export function applyRestore(store: string, workspace: string, steps: readonly RestoreStep[]): Promise<RestoreResult> {
  return whileSandboxHeld(steps.map((step) => step.path), () => restoreFiles(store, workspace, steps, writeBack));
}

/**
 * Whether a step would change anything: the file differs from what it would become. Steps are
 * guarded first (restore-guard.ts): a write's path is a regular file inside the workspace, or none.
 */
export function changesFile(store: string, step: RestoreStep): boolean {
  if (step.action === "unavailable") return true;
  const stat = fs.lstatSync(step.path, { throwIfNoEntry: false });
  if (step.action === "delete") return stat !== undefined;
  if (!stat) return true;
  const document = openDocument(step.path);
  if (!document && !fs.statSync(step.path).isFile()) return true;
  const current = document ? Buffer.from(document.getText(), "utf8") : fs.readFileSync(step.path);
  const content = readObject(store, step.hash);
  return !content || !content.equals(current);
}

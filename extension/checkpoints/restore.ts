/**
 * Puts files back as a restore plan says: the recorded content, or no file where there was none.
 * A document VS Code has open with unsaved changes gets the content through an edit and a save,
 * so the editor and the disk agree; other files are written directly.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { RestoreStep } from "../../shared/checkpoints/schema";
import { readObject } from "../../shared/node/checkpoint-store";

export interface RestoreResult {
  restored: string[];
  deleted: string[];
  /** Paths that could not be restored, with the reason. */
  failed: { path: string; reason: string }[];
}

function openDocument(absPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === absPath);
}

async function writeBack(absPath: string, content: Buffer): Promise<void> {
  const document = openDocument(absPath);
  if (document?.isDirty) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), content.toString("utf8"));
    if ((await vscode.workspace.applyEdit(edit)) && (await document.save())) return;
  }
  fs.mkdirSync(path.dirname(absPath), { recursive: true });
  fs.writeFileSync(absPath, content);
}

export async function applyRestore(store: string, steps: readonly RestoreStep[]): Promise<RestoreResult> {
  const result: RestoreResult = { restored: [], deleted: [], failed: [] };
  for (const step of steps) {
    try {
      if (step.action === "unavailable") {
        result.failed.push({ path: step.path, reason: step.reason });
      } else if (step.action === "delete") {
        fs.rmSync(step.path, { force: true });
        result.deleted.push(step.path);
      } else {
        const content = readObject(store, step.hash);
        if (!content) result.failed.push({ path: step.path, reason: "its checkpoint was pruned" });
        else {
          await writeBack(step.path, content);
          result.restored.push(step.path);
        }
      }
    } catch (error) {
      result.failed.push({ path: step.path, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}

/** Whether a step would change anything: the file differs from what it would become. */
export function changesFile(store: string, step: RestoreStep): boolean {
  if (step.action === "unavailable") return true;
  const exists = fs.existsSync(step.path);
  if (step.action === "delete") return exists;
  if (!exists) return true;
  const document = openDocument(step.path);
  const current = document ? Buffer.from(document.getText(), "utf8") : fs.readFileSync(step.path);
  const content = readObject(store, step.hash);
  return !content || !content.equals(current);
}

/**
 * Puts files back as a restore plan says: the recorded content, or no file where there was none.
 * Free of VS Code: restore.ts gives the writer that goes through an open document.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RestoreStep } from "../../shared/checkpoints/schema";
import { checkStep, realWorkspace } from "./restore-guard";
import { errorText } from "../../shared/error-text";

export interface RestoreResult {
  restored: string[];
  deleted: string[];
  /** Paths that could not be restored, with the reason. */
  failed: { path: string; reason: string }[];
}

/** Writes a file's restored content (restore.ts: through the editor when it has the file open and unsaved). */
export type WriteBack = (absPath: string, content: Buffer) => Promise<void>;

export const writeToDisk: WriteBack = async (absPath, content) => {
  fs.mkdirSync(path.dirname(absPath), { recursive: true });
  fs.writeFileSync(absPath, content);
};

/**
 * Restores the steps inside `workspace` (the session's folder): each is checked again right
 * before it is applied (restore-guard.ts), and acts on the real path it was judged by.
 */
export async function restoreFiles(store: string, workspace: string, steps: readonly RestoreStep[], writeBack: WriteBack = writeToDisk): Promise<RestoreResult> {
  const result: RestoreResult = { restored: [], deleted: [], failed: [] };
  const realRoot = realWorkspace(workspace);
  for (const step of steps) {
    try {
      const checked = checkStep(store, realRoot, step);
      if ("refused" in checked) {
        result.failed.push({ path: step.path, reason: checked.refused });
      } else if (checked.action === "delete") {
        const stat = fs.lstatSync(checked.target, { throwIfNoEntry: false });
        if (stat?.isDirectory()) throw new Error("it is a folder now");
        fs.rmSync(checked.target, { force: true });
        result.deleted.push(step.path);
      } else {
        await writeBack(checked.target, checked.content);
        result.restored.push(step.path);
      }
    } catch (error) {
      result.failed.push({ path: step.path, reason: errorText(error) });
    }
  }
  return result;
}

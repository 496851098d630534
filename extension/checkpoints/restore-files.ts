/**
 * Puts files back as a restore plan says: the recorded content, or no file where there was none.
 * Free of VS Code: restore.ts gives the writer that goes through an open document.
 */
import * as fs from "node:fs";
import type { RestoreStep } from "../../shared/checkpoints/schema";
import { checkStep, placeOf, realWorkspace } from "./restore-guard";
import { writeVerified } from "../host-tools/verified-write";
import { errorText } from "../../shared/error-text";

export interface RestoreResult {
  restored: string[];
  deleted: string[];
  /** Paths that could not be restored, with the reason. */
  failed: { path: string; reason: string }[];
}

/**
 * Writes a file's restored content (restore.ts: through the editor when it has the file open and
 * unsaved); `realRoot`: the workspace's real path, for the file opened to be judged again.
 */
export type WriteBack = (absPath: string, content: Buffer, realRoot: string) => Promise<void>;

/**
 * The file written as judged: the real path checkStep judged can be walked elsewhere by a folder on
 * its way replaced by a link before the write (a job flipping `d` between a folder and a link to
 * ~/.aws landed a rewind of d/config in ~/.aws/config within 40 tries). So the file really opened
 * is judged again, as placeOf judges a path (host-tools/verified-write.ts), before it is written.
 */
export const writeToDisk: WriteBack = (absPath, content, realRoot) => {
  const judge = (real: string) => {
    const place = placeOf([realRoot], real, "write");
    return "refused" in place ? place.refused : undefined;
  };
  return writeVerified(absPath, content, [realRoot], judge, absPath);
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
        await writeBack(checked.target, checked.content, realRoot);
        result.restored.push(step.path);
      }
    } catch (error) {
      result.failed.push({ path: step.path, reason: errorText(error) });
    }
  }
  return result;
}

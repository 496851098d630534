/**
 * Which records a rewind may act on. The checkpoint store is written by agents (a whole pi or omp
 * in the sandbox has it as a writable root; any agent's tools may reach it), so a record is
 * foreign data: its path is used only when, every symlink resolved, it lies inside the session's
 * workspace folder, in no home secret the agents' sandbox hides, and under no protected name (the sandbox's table: `.git`, `.pi`, `.vscode`, …,
 * at any depth and in any letter case), and its object only when its content is what its hash
 * says. A refused record is shown as a file that cannot be restored, with the reason.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RestoreStep } from "../../shared/checkpoints/schema";
import { loadObject } from "../../shared/node/checkpoint-store";
import { isInside, realPathOf } from "../../shared/node/real-path";
import { hiddenSecretOf, protectedReason } from "../../shared/node/sandbox/protected-match";
import { homeEnvOf } from "../../shared/node/sandbox/secret-places";
import { protectedWorkspaceNames } from "../../shared/node/sandbox/protected-paths";
import { errorText } from "../../shared/error-text";

/** What a step may do, on the real path it would reach; or why it is refused. */
export type CheckedStep = { refused: string } | { action: "delete"; target: string } | { action: "write"; target: string; content: Buffer };

/** The workspace folder's real path (computed once per rewind). */
export function realWorkspace(workspace: string): string {
  return realPathOf(path.resolve(workspace));
}

const objectRefusals = {
  missing: "its checkpoint was pruned",
  notAFile: "its checkpoint is not a regular file in the store (the store was changed)",
  tooLarge: "its checkpoint is larger than any recorded file (the store was changed)",
  mismatch: "its checkpoint's content does not match its hash (the store was changed)",
} as const;

/**
 * Checks one step against the workspace's real path. A write is judged where it lands (every
 * link followed), a delete where it removes (the parent's links followed: a link is removed, not
 * what it points to). The write's content is read and checked here.
 */
export function checkStep(store: string, realRoot: string, step: RestoreStep): CheckedStep {
  if (step.action === "unavailable") return { refused: step.reason };
  const place = placeOf([realRoot], step.path, step.action);
  if ("refused" in place) return place;
  const { target } = place;
  if (step.action === "delete") return { action: "delete", target };
  const existing = statOf(target);
  if (existing && !existing.isFile()) return { refused: "it is not a regular file now" };
  const loaded = loadObject(store, step.hash);
  return "content" in loaded ? { action: "write", target, content: loaded.content } : { refused: objectRefusals[loaded.refused] };
}

/**
 * Where a recorded path leads, if a rewind or a review's Undo may change it: inside one of
 * `realRoots` (real paths), under no protected name. `write` follows every link; `delete` only the
 * parent's (a link itself is removed).
 */
export function placeOf(realRoots: readonly string[], recordedPath: string, action: "write" | "delete"): { target: string } | { refused: string } {
  if (!path.isAbsolute(recordedPath)) return { refused: "its recorded path is not an absolute path (the store was changed)" };
  let target: string;
  try {
    target = action === "write" ? realPathOf(recordedPath) : path.join(realPathOf(path.dirname(recordedPath)), path.basename(recordedPath));
  } catch (error) {
    return { refused: errorText(error) };
  }
  const root = realRoots.find((r) => isInside(r, target) && target !== r);
  if (root === undefined) return { refused: "it is outside the session's workspace folder" };
  // With home as the workspace: a forged record planted ~/.aws/config's credential_process there, or removed a key.
  const secret = hiddenSecretOf(target, homeEnvOf(process.env));
  if (secret) return { refused: `it is in ~/${secret}, which the agents' sandbox hides` };
  const forbidden = protectedReason(target, { table: protectedWorkspaceNames, workspaces: [root] });
  return forbidden ? { refused: forbidden } : { target };
}

/** The steps with every refused one turned into a file that cannot be restored, with its reason. */
export function guardSteps(store: string, realRoot: string, steps: readonly RestoreStep[]): RestoreStep[] {
  return steps.map((step) => {
    const checked = checkStep(store, realRoot, step);
    return "refused" in checked && step.action !== "unavailable" ? { path: step.path, action: "unavailable", reason: checked.refused } : step;
  });
}

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

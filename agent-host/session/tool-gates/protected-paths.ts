/**
 * Files that tools, the editor or the user's next command execute or obey without anyone reading
 * them again (shared/node/sandbox/protected-paths.ts): a write to one is a step to running code
 * (`core.fsmonitor` in `.git/config` runs at the next `git status`, which VS Code's git extension
 * runs by itself; a folder-open task in `.vscode/tasks.json`; a Pi extension in `.pi/extensions/`;
 * a `package.json` script; a git hook). A write or edit of one is asked, with the change shown, in
 * every permission mode but `auto`, and in `auto` too under a sandbox (permission-policy.ts).
 *
 * Decided on the path the tool would really open (`resolveToCwd`, then every symlink resolved,
 * a dangling one followed to the file it would create), by protected-match.ts.
 */
import { realPathOf } from "../../../shared/node/real-path";
import { isProtectedPath } from "../../../shared/node/sandbox/protected-match";
import { resolveToCwd } from "../../tools/paths";

/** The tools whose call writes the file at `path` (editor_edit changes the editor's buffer, which a save or auto-save writes). */
export const writingTools: ReadonlySet<string> = new Set(["write", "edit", "editor_edit"]);

function realPathOrLoop(absPath: string): string | undefined {
  try {
    return realPathOf(absPath);
  } catch {
    return undefined;
  }
}

/** A sandbox that confines what commands write: its writes from outside it (the host's own tools) are asked. */
export type ConfiningSandbox = "workspace-write" | "read-only";

/**
 * A file a call would write that must be asked about: the path as the tool resolves it, where it
 * really leads (symlinks followed), and why: a protected name, or any file while the sandbox is
 * read-only (commands may write nothing there; the host's tools write from outside it).
 */
export interface ProtectedTarget {
  absPath: string;
  realPath: string;
  why: "protected" | "read-only";
}

/** The file a write/edit call would open, when it is protected (or the sandbox is read-only); undefined otherwise. */
export function protectedTarget(tool: string, args: Record<string, unknown>, cwd: string, sandbox?: ConfiningSandbox): ProtectedTarget | undefined {
  if (!writingTools.has(tool) || typeof args.path !== "string" || args.path === "") return undefined;
  const absPath = resolveToCwd(args.path, cwd);
  const why = isProtectedPath(absPath, { workspaces: [cwd] }) ? "protected" : sandbox === "read-only" ? "read-only" : undefined;
  return why && { absPath, realPath: realPathOrLoop(absPath) ?? absPath, why };
}

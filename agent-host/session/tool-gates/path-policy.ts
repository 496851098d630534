import type { BeforeToolCallResult } from "../../agent/types";
import type { ToolCall } from "../../ai/types";
import { resolveToCwd } from "../../tools/paths";
import { createWorkspaceGuard } from "../../tools/workspace-guard";
import { errorText } from "../../../shared/error-text";

/** The built-in tools whose `path` argument names the file or folder they work on. */
export const pathTools: ReadonlySet<string> = new Set(["read", "write", "edit", "ls", "find", "grep"]);

/**
 * `--workspace-only`, asked before a call runs (so a refused path is never put to the user): the
 * path as written, fully resolved, must lie inside the working directory. The tools check again
 * the path they really open (createWorkspaceGuard), which may differ (read's spelling variants).
 */
export function createWorkspaceGate(cwd: string) {
  const guard = createWorkspaceGuard(cwd);
  return (call: ToolCall): BeforeToolCallResult => {
    const path = call.arguments.path;
    if (!pathTools.has(call.name) || typeof path !== "string" || path === "") return undefined;
    try {
      guard(resolveToCwd(path, cwd), path);
      return undefined;
    } catch (error) {
      return { block: true, reason: `${errorText(error)} (${call.name})` };
    }
  };
}

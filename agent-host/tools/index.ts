/**
 * The built-in coding tools, with pi's names, parameters and limits: the default set (read, bash,
 * edit, write), a read-only set (read, grep, find, ls) and all of them. Every factory takes the
 * working directory the tools resolve paths against and per-tool options (I/O seams, binaries).
 */
import type { AnyAgentTool } from "../agent/tool";
import { createBashTool, type BashToolOptions } from "./bash";
import { createEditTool, type EditToolOptions } from "./edit";
import { createFindTool, type FindToolOptions } from "./find";
import { createGrepTool, type GrepToolOptions } from "./grep";
import type { HiddenPaths } from "./hidden-paths";
import { createLsTool, type LsToolOptions } from "./ls";
import { createReadTool, type ReadToolOptions } from "./read";
import { createWriteTool, type WriteToolOptions } from "./write";
import type { PathGuard } from "./paths";

export { createBashTool, type BashToolDetails, type BashToolOptions } from "./bash";
export { createEditTool, prepareEditArguments, type EditToolDetails, type EditToolOptions } from "./edit";
export { createFindTool, type FindToolDetails, type FindToolOptions } from "./find";
export { createGrepTool, type GrepToolDetails, type GrepToolOptions } from "./grep";
export { createLsTool, type LsToolDetails, type LsToolOptions } from "./ls";
export { createReadTool, type ReadToolDetails, type ReadToolOptions } from "./read";
export { createWriteTool, type WriteToolOptions } from "./write";
export { createWorkspaceGuard } from "./workspace-guard";
export type { PathGuard } from "./paths";
export * from "./io";
export { createLocalShellIo } from "./shell";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead, truncateLine, truncateTail, type TruncationResult } from "./truncate";

export type ToolName = "read" | "bash" | "edit" | "write" | "grep" | "find" | "ls";
export const allToolNames: readonly ToolName[] = ["read", "bash", "edit", "write", "grep", "find", "ls"];
/** pi's `defaultTools`. */
export const defaultToolNames: readonly ToolName[] = ["read", "bash", "edit", "write"];

export interface ToolsOptions {
  read?: ReadToolOptions;
  bash?: BashToolOptions;
  edit?: EditToolOptions;
  write?: WriteToolOptions;
  grep?: GrepToolOptions;
  find?: FindToolOptions;
  ls?: LsToolOptions;
  /** Checks every path a file tool opens (each tool's own `guard` wins). */
  guard?: PathGuard;
  /** Checked by the writing tools right before they write (each tool's own `beforeWrite` wins). */
  beforeWrite?: PathGuard;
  /** What a sandbox hides from commands, left out of grep's and find's results (its `guard` is in `guard`). */
  hidden?: HiddenPaths;
}

export function createTool(name: ToolName, cwd: string, options: ToolsOptions = {}): AnyAgentTool {
  const guarded = options.guard ? { guard: options.guard } : {};
  const checked = { ...guarded, ...(options.beforeWrite ? { beforeWrite: options.beforeWrite } : {}) };
  const hidden = options.hidden ? { hidden: options.hidden } : {};
  switch (name) {
    case "read":
      return createReadTool(cwd, { ...guarded, ...options.read });
    case "bash":
      return createBashTool(cwd, options.bash);
    case "edit":
      return createEditTool(cwd, { ...checked, ...options.edit });
    case "write":
      return createWriteTool(cwd, { ...checked, ...options.write });
    case "grep":
      return createGrepTool(cwd, { ...guarded, ...hidden, ...options.grep });
    case "find":
      return createFindTool(cwd, { ...guarded, ...hidden, ...options.find });
    case "ls":
      return createLsTool(cwd, { ...guarded, ...options.ls });
    default:
      throw new Error(`Unknown tool name: ${String(name)}`);
  }
}

/** The default set, in pi's order: read, bash, edit, write. */
export function createCodingTools(cwd: string, options: ToolsOptions = {}): AnyAgentTool[] {
  return defaultToolNames.map((name) => createTool(name, cwd, options));
}

/** Tools that cannot change anything: read, grep, find, ls. */
export function createReadOnlyTools(cwd: string, options: ToolsOptions = {}): AnyAgentTool[] {
  return (["read", "grep", "find", "ls"] as const).map((name) => createTool(name, cwd, options));
}

/** Every built-in tool by name. */
export function createAllTools(cwd: string, options: ToolsOptions = {}): Record<ToolName, AnyAgentTool> {
  return Object.fromEntries(allToolNames.map((name) => [name, createTool(name, cwd, options)])) as Record<ToolName, AnyAgentTool>;
}

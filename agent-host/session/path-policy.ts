import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import type { BeforeToolCallResult } from "../agent/types";
import type { ToolCall } from "../ai/types";
import { resolveToCwd } from "../tools/paths";

/** The built-in tools whose `path` argument names the file or folder they work on. */
export const pathTools: ReadonlySet<string> = new Set(["read", "write", "edit", "ls", "find", "grep"]);

/** `path` with symlinks resolved as far as it exists; the part that does not exist yet is appended as written. */
export function realPathOf(path: string): string {
  const missing: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      return join(realpathSync.native(current), ...missing);
    } catch {
      if (dirname(current) === current) return path;
      missing.unshift(basename(current));
    }
  }
}

/** True when `target` is `root` or below it (both real paths). */
export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * `--workspace-only`: read, write, edit, ls, find and grep refuse a path (absolute, `~`, `..` or
 * through a symlink) that resolves outside the working directory. bash is not confined: a shell
 * command can reach any file the user can.
 */
export function createWorkspaceGate(cwd: string) {
  const root = realPathOf(cwd);
  return (call: ToolCall): BeforeToolCallResult => {
    const path = call.arguments.path;
    if (!pathTools.has(call.name) || typeof path !== "string" || path === "") return undefined;
    const real = realPathOf(resolveToCwd(path, cwd));
    if (isInside(root, real)) return undefined;
    return { block: true, reason: `Refused: ${path} is outside the workspace (${root}). This agent may only use paths inside it with ${call.name}.` };
  };
}

type Gate = (call: ToolCall, signal: AbortSignal) => BeforeToolCallResult | Promise<BeforeToolCallResult>;

/** Gates asked in order; the first that blocks decides. */
export function chainGates(gates: readonly Gate[]): Gate {
  return async (call, signal) => {
    for (const gate of gates) {
      const verdict = await gate(call, signal);
      if (verdict?.block) return verdict;
    }
    return undefined;
  };
}

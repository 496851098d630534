/** Helpers for the tools' tests (not used by the tools). */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AgentTool, AgentToolResult } from "../agent/tool";
import type { TSchema, Static } from "@sinclair/typebox";

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(prefix = "pi-tools-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes files (path → content) under `root`, creating directories. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

export interface RunOutcome<D> {
  result: AgentToolResult<D>;
  updates: AgentToolResult<D>[];
}

/** Runs a tool like the agent loop does: a throw becomes an error result with the message. */
export async function run<P extends TSchema, D>(
  tool: AgentTool<P, D>,
  params: Static<P>,
  signal: AbortSignal = new AbortController().signal,
): Promise<RunOutcome<D>> {
  const updates: AgentToolResult<D>[] = [];
  try {
    const result = await tool.execute("call-1", params, signal, (u) => updates.push(u));
    return { result, updates };
  } catch (error) {
    return { result: { content: [{ type: "text", text: (error as Error).message }], isError: true }, updates };
  }
}

/** The text blocks of a result, joined. */
export function textOf(result: AgentToolResult<unknown>): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** Is the process gone (or a zombie nobody reaped yet, which runs nothing)? */
export function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf-8"));
  } catch {
    return true;
  }
}

export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import type { CommandSandbox, WrappedCommand } from "../../shared/node/sandbox";

/** What a sandboxed command did: its output (stdout then stderr as they came), exit code and the argv it was started with. */
export interface SandboxedRun {
  out: string;
  code: number | null;
  argv: string[];
}

/** One command as the bash tool runs it: probe, prepare, wrap, spawn, then sweep and release. */
export async function runSandboxed(sandbox: CommandSandbox, script: string, cwd: string): Promise<SandboxedRun> {
  const probe = await sandbox.probe();
  assert.ok(probe.ok, probe.ok ? "" : probe.reason);
  await sandbox.prepare();
  return startWrapped(sandbox.wrap(probe, ["/bin/sh", "-c", script], cwd));
}

/** A wrapped command spawned and waited for; swept and released after. */
export async function startWrapped(wrapped: WrappedCommand): Promise<SandboxedRun> {
  const child = spawn(wrapped.file, wrapped.args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  wrapped.sweep();
  wrapped.release();
  return { out, code, argv: [wrapped.file, ...wrapped.args] };
}

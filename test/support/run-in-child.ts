import { spawnSync } from "node:child_process";

/**
 * Runs CommonJS `script` (TypeScript modules load through tsx) in a child node, killed after
 * `timeoutMs`: a read that blocks for good (a FIFO) becomes a failure instead of a stuck test run.
 * The last line printed is the child's peak memory in MB.
 */
export function runInChild(script: string, timeoutMs = 15_000): { timedOut: boolean; lines: string[]; stderr: string; peakMb: number } {
  const run = spawnSync(process.execPath, ["--import", "tsx", "-e", `${script}; console.log(Math.round(process.resourceUsage().maxRSS / 1024));`], {
    encoding: "utf8", timeout: timeoutMs, killSignal: "SIGKILL",
  });
  const lines = run.stdout.trim().split("\n").filter(Boolean);
  const peak = lines.length > 0 ? Number(lines.pop()) : 0;
  return { timedOut: run.signal === "SIGKILL", lines, stderr: run.stderr.trim(), peakMb: peak };
}

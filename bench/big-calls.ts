/**
 * Big tool calls (issue 31): the model writes one file through `write`, its arguments streamed in
 * 20-character deltas, as models stream them. Timed from the model's last byte (the scripted
 * server's response finished) to `agent_end`, with the agent's CPU time over the whole call; the
 * file written is checked. A subject that takes longer than the cap on a size is stopped and
 * skips the larger sizes; pi is run only up to `piMaxChars` (its cost is quadratic: 400 KB takes
 * minutes).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startAgent, type SubjectId } from "./lib/agent";
import { Metric, num } from "./lib/stats";
import type { Context, Scenario } from "./scenarios";

export const BIG_CALL_DELTA_CHARS = 20;

export interface BigCallOptions {
  /** Sizes of the written file in characters, ascending. */
  sizes: number[];
  /** pi runs the sizes up to this one only. */
  piMaxChars: number;
  /** A call that takes longer (prompt → agent_end) is stopped and counted as over the cap. */
  capMs: number;
  /** Rounds (each size costs seconds). */
  runs: number;
}

const kb = (chars: number): string => (chars >= 1e6 ? `${chars / 1e6} MB` : `${chars / 1e3} KB`);

/** `chars` characters of source-like text (lines of ~64 characters, so the JSON has escapes). */
export function bigFileText(chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const line = `  const line${i.toString().padStart(6, "0")} = "the quick brown fox jumps";\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join("").slice(0, chars);
}

interface SizeMetrics {
  chars: number;
  tail: Metric;
  cpu: Metric;
}

export function bigCallScenario(options: BigCallOptions): Scenario & { sizeMetrics: SizeMetrics[] } {
  const subjects: SubjectId[] = ["host@22", "host@20", "pi@22"];
  const sizeMetrics = options.sizes.map((chars) => ({
    chars,
    tail: new Metric(`bigCall${chars}`, `\`write\` of ${kb(chars)} in ${BIG_CALL_DELTA_CHARS}-char deltas: model's last byte → agent_end`, "ms"),
    cpu: new Metric(`bigCallCpu${chars}`, "  agent CPU time, prompt → agent_end", "ms"),
  }));
  const texts = new Map(options.sizes.map((chars) => [chars, bigFileText(chars)]));
  return {
    name: "big tool calls",
    subjects,
    maxRuns: options.runs,
    metrics: sizeMetrics.flatMap((m) => [m.tail, m.cpu]),
    sizeMetrics,
    async run(ctx, subject, record) {
      // The warm-up round runs the smallest size only.
      for (const size of record ? sizeMetrics : sizeMetrics.slice(0, 1)) {
        if (subject === "pi@22" && size.chars > options.piMaxChars) {
          size.tail.fail(subject, new Error(`not run: pi's cost is quadratic (set by --big-pi-max-kb, now ${options.piMaxChars / 1000} KB)`));
          continue;
        }
        if (size.tail.errors.has(subject) && !size.tail.samples.has(subject)) continue;
        const over = sizeMetrics.find((m) => m.chars < size.chars && m.tail.errors.has(subject) && !m.tail.samples.has(subject));
        if (over) {
          size.tail.fail(subject, new Error(`not run: ${kb(over.chars)} was over the cap`));
          continue;
        }
        try {
          const figures = await oneBigCall(ctx, subject, texts.get(size.chars)!, options.capMs);
          if (!record) continue;
          size.tail.add(subject, figures.tailMs);
          size.cpu.add(subject, figures.cpuMs);
        } catch (error) {
          size.tail.fail(subject, error);
          size.cpu.fail(subject, error);
          ctx.log(`  ${subject} ${kb(size.chars)}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
        }
      }
    },
  };
}

async function oneBigCall(ctx: Context, subject: SubjectId, content: string, capMs: number): Promise<{ tailMs: number; cpuMs: number }> {
  const cwd = path.join(ctx.dir, "work");
  const file = `big-${content.length}.txt`;
  fs.rmSync(path.join(cwd, file), { force: true });
  const { agent } = await startAgent(subject, { baseUrl: ctx.llm.baseUrl, cwd });
  try {
    ctx.llm.script([{ toolCall: { name: "write", arguments: { path: file, content }, argumentDelta: BIG_CALL_DELTA_CHARS } }, { text: ["Done."] }]);
    ctx.llm.reset();
    const cpu0 = agent.cpuMs();
    let endAt = 0;
    const ended = agent.waitFor((f) => f.type === "agent_end" && (endAt = performance.now()) > 0, capMs);
    await agent.request({ type: "prompt", message: "write the big file" });
    await ended.catch((error: unknown) => {
      throw new Error(`over the cap of ${num(capMs / 1000)} s${error instanceof Error && !error.message.includes("no awaited frame") ? `: ${error.message}` : ""}`);
    });
    const cpuMs = agent.cpuMs() - cpu0;
    const lastByte = ctx.llm.stats.finishedAt[0];
    if (lastByte === undefined) throw new Error("the model's response did not finish");
    const written = fs.readFileSync(path.join(cwd, file), "utf8");
    if (written !== content) throw new Error(`the file written has ${written.length} characters, not ${content.length}`);
    return { tailMs: endAt - lastByte, cpuMs };
  } finally {
    await agent.stop();
  }
}

/** The goals of issue 31 for the host, judged on the medians. */
export function bigCallGoals(sizeMetrics: SizeMetrics[]): string[] {
  const rows = ["| goal (issue 31) | host@22 | host@20 | pi@22 |", "| --- | --- | --- | --- |"];
  const subjects: SubjectId[] = ["host@22", "host@20", "pi@22"];
  const median = (m: Metric, s: SubjectId): number | undefined => m.summary(s)?.median;
  const at400 = sizeMetrics.find((m) => m.chars === 400_000);
  if (at400) {
    const cells = subjects.map((s) => {
      const v = median(at400.tail, s);
      return v === undefined ? "not measured" : `${v <= 1000 ? "**met**" : "**not met**"} (${num(v)} ms)`;
    });
    rows.push(`| 400 KB \`write\`: model's last byte → agent_end ≤ 1 s | ${cells.join(" | ")} |`);
  }
  for (let i = 1; i < sizeMetrics.length; i++) {
    const [a, b] = [sizeMetrics[i - 1]!, sizeMetrics[i]!];
    const cells = subjects.map((s) => {
      const x = median(a.cpu, s);
      const y = median(b.cpu, s);
      if (x === undefined || y === undefined) return "not measured";
      const r = y / x;
      const limit = (b.chars / a.chars) * 1.2;
      return `${r <= limit ? "**met**" : "**not met**"} (${num(r)}x)`;
    });
    rows.push(`| ${kb(b.chars)} vs ${kb(a.chars)}: CPU time ≤ ${num((b.chars / a.chars) * 1.2)}x | ${cells.join(" | ")} |`);
  }
  return rows;
}

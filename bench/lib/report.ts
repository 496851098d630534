/** The benchmark report: machine facts, the figures table with ratios, and the goals. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import { NODE20, NODE22, type SubjectId } from "./agent";
import { num, type Metric } from "./stats";

export interface Machine {
  date: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  kernel: string;
  node20: string;
  node22: string;
  pi: string;
  commit: string;
  loadBefore: string;
  /** Variables Node reads at every start (all subjects get the same environment). */
  startupEnv: string;
}

function run(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "?";
  }
}

export function machine(piVersion: string): Machine {
  const dirty = run("git", ["status", "--porcelain", "--", "agent-host", "shared"]) ? " + uncommitted changes in agent-host/ or shared/" : "";
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? "?",
    memoryGiB: os.totalmem() / 2 ** 30,
    kernel: `${os.type()} ${os.release()}`,
    node20: run(NODE20, ["--version"]),
    node22: run(NODE22, ["--version"]),
    pi: piVersion,
    commit: run("git", ["rev-parse", "--short", "HEAD"]) + dirty,
    loadBefore: os.loadavg().map((l) => l.toFixed(2)).join(" "),
    startupEnv: ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "NODE_COMPILE_CACHE", "NODE_DISABLE_COMPILE_CACHE"].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`).join(", ") || "none",
  };
}

const COLUMNS: SubjectId[] = ["host@20", "host@22", "pi@22", "floor@20", "floor@22"];

function ratio(metric: Metric, a: SubjectId, b: SubjectId): number | undefined {
  const x = metric.summary(a)?.median;
  const y = metric.summary(b)?.median;
  return x === undefined || y === undefined || y === 0 ? undefined : x / y;
}

const showRatio = (r: number | undefined): string => (r === undefined ? "–" : `${num(r)}x`);

export function table(metrics: Metric[]): string[] {
  const header = ["metric", "unit", ...COLUMNS.map((c) => `**${c}**`), "host@22 / pi", "host@20 / pi", "host / floor (same Node)"];
  const rows = [header, header.map(() => "---")];
  for (const m of metrics) {
    const hasFloor = m.samples.has("floor@20") || m.samples.has("floor@22");
    const floor = hasFloor ? `${showRatio(ratio(m, "host@20", "floor@20"))} (20), ${showRatio(ratio(m, "host@22", "floor@22"))} (22)` : "–";
    rows.push([m.label, m.unit, ...COLUMNS.map((c) => m.cell(c)), showRatio(ratio(m, "host@22", "pi@22")), showRatio(ratio(m, "host@20", "pi@22")), floor]);
  }
  return rows.map((r) => `| ${r.join(" | ")} |`);
}

interface Goal {
  text: string;
  metric: string;
  /** The same comparison on CPU time, which other load on the machine disturbs far less. */
  cpuMetric?: string;
  /** Reference subject for our host on Node 20 / 22 and the largest allowed ratio. */
  against: (host: SubjectId) => SubjectId;
  limit: number;
}

const toPi = (): SubjectId => "pi@22";
const GOALS: Goal[] = [
  { text: "start-up ≤ 2x the floor (same Node)", metric: "start", cpuMetric: "startCpu", against: (h) => (h === "host@20" ? "floor@20" : "floor@22"), limit: 2 },
  { text: "stream time ≤ 0.5 of pi's", metric: "stream", cpuMetric: "streamCpu", against: toPi, limit: 0.5 },
  { text: "stdout bytes ≤ pi's", metric: "streamBytes", against: toPi, limit: 1 },
  { text: "peak RSS ≤ 0.5 of pi's", metric: "peakRss", against: toPi, limit: 0.5 },
  { text: "per-turn overhead ≤ 0.5 of pi's", metric: "turnOverhead", cpuMetric: "turnCpu", against: toPi, limit: 0.5 },
  { text: "10 MB session switch ≤ 0.5 of pi's time", metric: "switch", cpuMetric: "switchCpu", against: toPi, limit: 0.5 },
];

function verdict(metric: Metric | undefined, host: SubjectId, goal: Goal): string {
  const r = metric ? ratio(metric, host, goal.against(host)) : undefined;
  if (r === undefined) return "not measured";
  return `${r <= goal.limit ? "**met**" : "**not met**"} (${num(r)}x)`;
}

/** Goals of the issue, judged on the medians of this run (wall time; the CPU-time verdict beside it). */
export function goals(metrics: Metric[]): string[] {
  const byKey = new Map(metrics.map((m) => [m.key, m]));
  const rows = ["| goal | host@22 | host@22, CPU time | host@20 | host@20, CPU time |", "| --- | --- | --- | --- | --- |"];
  for (const goal of GOALS) {
    if (!byKey.get(goal.metric)?.samples.size) continue; // a scenario not run this time
    const cells = (["host@22", "host@20"] as SubjectId[]).flatMap((host) => [
      verdict(byKey.get(goal.metric), host, goal),
      goal.cpuMetric ? verdict(byKey.get(goal.cpuMetric), host, goal) : "–",
    ]);
    rows.push(`| ${goal.text} | ${cells.join(" | ")} |`);
  }
  return rows;
}

const BIG_CALL_NOTE = [
  "Big tool calls run fewer rounds (`--big-runs`, 3) with a warm-up at the smallest size; pi runs only",
  "up to `--big-pi-max-kb` (its cost is quadratic: 400 KB took 262 s in issue 31); a call over the cap",
  "(`--big-cap-s`) is stopped and the larger sizes skipped. The data-vs-time goal is judged on the",
  "agent's CPU time over the whole call (prompt → agent_end), which the scripted stream's pacing does not inflate.",
].join("\n");

export function writeReport(file: string, m: Machine, metrics: Metric[], notes: { runs: number; seconds: number; command: string; extraGoals?: string[] }): void {
  const loadAfter = os.loadavg();
  const busy = loadAfter[0]! > m.cpus || Number(m.loadBefore.split(" ")[0]) > m.cpus;
  const lines = [
    "# Benchmarks: agent host vs pi 0.87.1",
    "",
    `Written by \`${notes.command}\` (bench/run.ts) on ${m.date}; do not edit by hand. Figures are the`,
    `median (min–max) of ${notes.runs} alternating runs per subject, each in a fresh process, after one`,
    "discarded warm-up round. All agents talk to the same scripted OpenAI-compatible server on",
    "127.0.0.1 (bench/lib/llm.ts) in the benchmark's own process.",
    "",
    "## Machine",
    "",
    `- ${m.cpus} CPUs: ${m.cpuModel}; ${m.memoryGiB.toFixed(1)} GiB memory; ${m.kernel}`,
    `- Node: system ${m.node20} (\`@20\`), pi's bundled ${m.node22} (\`@22\`); pi ${m.pi}`,
    `- repository at ${m.commit}; load average before the run: ${m.loadBefore}, after: ${loadAfter.map((l) => l.toFixed(2)).join(" ")}; whole run ${notes.seconds.toFixed(0)} s`,
    `- Node start-up variables, the same for every subject: ${m.startupEnv} (NODE_EXTRA_CA_CERTS makes every Node 20 process, the floor's too, parse its CA bundle at start-up, ~30 ms here; Node 22 loads it when first needed)`,
    ...(busy ? ["", `**The machine was busy (load average above ${m.cpus}): wall-clock figures are disturbed; trust the CPU-time rows and verdicts more.**`] : []),
    "",
    "Subjects: **host** = `dist/agent-host.js --mode rpc` (our agent host), **pi** = pi's",
    "`dist/bundle/cli.js --mode rpc`, both `--provider mock --model mock --no-session --offline` with a",
    "temp agent dir (test/support/peers.ts); **floor** = bench/floor.mjs, which only frames JSONL and",
    "answers `get_state`.",
    "",
    "## Figures",
    "",
    ...table(metrics),
    "",
    "## Goals (issue 13)",
    "",
    ...goals(metrics),
    "",
    ...(notes.extraGoals?.length ? ["## Goals (issue 31: big tool calls)", "", ...notes.extraGoals, "", BIG_CALL_NOTE, ""] : []),
    "Ratios are of medians; goals are judged on wall time as the issue states them, with the same",
    "ratio on the agent's CPU time (all its threads, from /proc/<pid>/task/*/schedstat) beside it.",
    "Timings are from a shared 2-core machine: compare columns of the same run, not across runs.",
    "",
  ];
  fs.writeFileSync(file, lines.join("\n"));
}

/**
 * `npm run bench`: our agent host (Node 20 and 22) vs the real pi 0.87.1 (Node 22) vs the bare-Node
 * floor, same scripted LLM, in one run. Prints the figures and rewrites bench/RESULTS.md.
 *
 *   npm run bench                          all scenarios, 9 runs each
 *   npm run bench -- --runs 3              fewer runs
 *   npm run bench -- --only stream,tools   some scenarios (startup, stream, tools, switch, tree)
 *   npm run bench -- --no-write            print only
 *   npm run bench -- --only bigcalls --big-sizes 40,400,4000 --big-pi-max-kb 40 --big-cap-s 60 --big-runs 3
 *
 * Nothing here asserts a timing: figures are reported, goals marked met / not met.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { assertPeerInstalled, peerDir } from "../test/support/peers";
import { startBenchLlm } from "./lib/llm";
import { goals, machine, table, writeReport } from "./lib/report";
import { bigCallGoals, bigCallScenario, type BigCallOptions } from "./big-calls";
import { runScenario, startupScenario, streamScenario, switchScenario, toolsScenario, treeScenario, type Scenario } from "./scenarios";

interface Options {
  runs: number;
  only?: string[];
  write: boolean;
  idleMs: number;
  big: BigCallOptions;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 9, write: true, idleMs: 1000, big: { sizes: [40_000, 400_000, 4_000_000], piMaxChars: 40_000, capMs: 60_000, runs: 3 } };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === "--runs") options.runs = Math.max(1, Number(value()));
    else if (arg === "--only") options.only = value().split(",");
    else if (arg === "--idle-ms") options.idleMs = Number(value());
    else if (arg === "--no-write") options.write = false;
    else if (arg === "--big-sizes") options.big.sizes = value().split(",").map((k) => Number(k) * 1000);
    else if (arg === "--big-pi-max-kb") options.big.piMaxChars = Number(value()) * 1000;
    else if (arg === "--big-cap-s") options.big.capMs = Number(value()) * 1000;
    else if (arg === "--big-runs") options.big.runs = Math.max(1, Number(value()));
    else throw new Error(`unknown option ${arg} (see bench/run.ts)`);
  }
  return options;
}

const ROOT = path.resolve(__dirname, "..");

/** Warns when dist/agent-host.js is older than a source file it is built from. */
function checkBuild(): void {
  const host = path.join(ROOT, "dist", "agent-host.js");
  if (!fs.existsSync(host)) throw new Error("dist/agent-host.js is missing: run `npm run build` first");
  const built = fs.statSync(host).mtimeMs;
  const newer = (dir: string): boolean =>
    fs.readdirSync(dir, { withFileTypes: true, recursive: true }).some((e) => e.isFile() && e.name.endsWith(".ts") && fs.statSync(path.join(e.parentPath, e.name)).mtimeMs > built);
  if (newer(path.join(ROOT, "agent-host")) || newer(path.join(ROOT, "shared"))) {
    console.warn("warning: dist/agent-host.js is older than agent-host/ or shared/ sources: run `npm run build` for current figures");
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  checkBuild();
  assertPeerInstalled("pi");
  const piVersion = (JSON.parse(fs.readFileSync(path.join(peerDir("pi"), "node_modules/@earendil-works/pi-coding-agent/package.json"), "utf8")) as { version: string }).version;
  const facts = machine(piVersion);
  console.log(`bench: ${facts.cpus} CPUs (${facts.cpuModel}), Node ${facts.node20} / ${facts.node22}, pi ${piVersion}, ${options.runs} runs, load ${facts.loadBefore}`);

  const all: Record<string, () => Scenario> = {
    startup: () => startupScenario(options.idleMs),
    stream: streamScenario,
    tools: toolsScenario,
    switch: switchScenario,
    tree: treeScenario,
    bigcalls: () => bigCallScenario(options.big),
  };
  const names = options.only ?? Object.keys(all);
  for (const n of names) if (!all[n]) throw new Error(`unknown scenario ${n}; known: ${Object.keys(all).join(", ")}`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-bench-"));
  fs.mkdirSync(path.join(dir, "work"));
  const llm = await startBenchLlm();
  const t0 = performance.now();
  const scenarios: Scenario[] = [];
  try {
    for (const n of names) {
      const scenario = all[n]!();
      console.log(`- ${scenario.name} (${scenario.subjects.join(", ")})`);
      await runScenario({ llm, runs: options.runs, dir, log: (line) => console.log(line) }, scenario);
      scenarios.push(scenario);
    }
  } finally {
    await llm.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const seconds = (performance.now() - t0) / 1000;
  const metrics = scenarios.flatMap((s) => s.metrics);
  const big = scenarios.find((s): s is ReturnType<typeof bigCallScenario> => "sizeMetrics" in s);
  const bigGoals = big ? bigCallGoals(big.sizeMetrics) : [];
  console.log(["", ...table(metrics), "", ...goals(metrics), "", ...bigGoals, ""].join("\n"));
  if (options.write) {
    const file = path.join(ROOT, "bench", "RESULTS.md");
    const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
    writeReport(file, facts, metrics, { runs: options.runs, seconds, command, extraGoals: bigGoals });
    console.log(`wrote ${path.relative(process.cwd(), file)} (${seconds.toFixed(0)} s)`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});

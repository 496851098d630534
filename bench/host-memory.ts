/**
 * `npm run bench:memory`: what one more session costs in memory (issue 31's "memory per extra
 * session ≤ 1.2 x a bare Node process"): each agent's RSS (and its anonymous part, what is not
 * shared with other processes of the same binary) idle after start, after one prompt answered by
 * the scripted model and after a 4,000-delta stream, beside a bare Node process (bench/floor.mjs)
 * of the same binary. Our host twice: as `node dist/agent-host.js` and as the editor launches it
 * ("+launch": extension/supervision/host-memory.ts). Runs alternate between subjects, each in a
 * fresh process; medians.
 *
 *   npm run bench:memory                  5 runs
 *   npm run bench:memory -- --runs 9 --idle-ms 1000
 *   BENCH_HOST_JS=/other/dist/agent-host.js npm run bench:memory   another build of the host
 *   npm run bench:memory -- --pool [--runs 3] [--sessions 1,2,4,8] [--node 22]   sessions sharing
 *     one process (bench/pool-memory.ts) against a process each; only that
 */
import * as os from "node:os";
import * as fs from "node:fs";
import * as path from "node:path";
import { hostMemoryLaunch } from "../extension/supervision/host-memory";
import { startAgent, type SubjectId } from "./lib/agent";
import { startBenchLlm, streamDeltas } from "./lib/llm";
import { Metric, rotate, sleep } from "./lib/stats";
import { promptToSettled } from "./scenarios";
import { poolMemory } from "./pool-memory";

const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const runs = option("--runs", 5);
const idleMs = option("--idle-ms", 1000);
/** A subject, and whether the host runs as the editor launches it. */
const subjects: { id: SubjectId; launch?: true }[] = [{ id: "floor@20" }, { id: "host@20" }, { id: "host@20", launch: true }, { id: "floor@22" }, { id: "host@22" }, { id: "host@22", launch: true }, { id: "pi@22" }];
const nameOf = (s: { id: SubjectId; launch?: true }) => `${s.id}${s.launch ? "+launch" : ""}`;
const editorLaunch = hostMemoryLaunch(process.platform, process.env, false);

/** RSS and its anonymous part (heap, stacks: not shared with another process of the same binary), MB. */
function memoryMb(pid: number): { rss: number; anon: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, anon: kb("RssAnon") / 1024 };
}

async function main(): Promise<void> {
  const llm = await startBenchLlm();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-bench-memory-"));
  if (argv.includes("--pool")) {
    const counts = (argv.includes("--sessions") ? argv[argv.indexOf("--sessions") + 1]! : "1,2,4,8").split(",").map(Number);
    const node = option("--node", 20) === 22 ? 22 : 20;
    try {
      await poolMemory({ llm, cwd: dir, runs: option("--runs", 3), idleMs, counts, node, editorLaunch, rssMb: (pid) => memoryMb(pid).rss });
    } finally {
      await llm.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  const idle = new Metric("idleRss", `RSS ${idleMs} ms after start`, "MB");
  const idleAnon = new Metric("idleAnon", "  of which anonymous (RssAnon)", "MB");
  const after = new Metric("promptRss", `RSS ${idleMs} ms after one prompt settled`, "MB");
  const afterAnon = new Metric("promptAnon", "  of which anonymous (RssAnon)", "MB");
  const stream = new Metric("streamRss", `RSS ${idleMs} ms after a 4,000-delta stream settled`, "MB");
  const streamAnon = new Metric("streamAnon", "  of which anonymous (RssAnon)", "MB");
  try {
    for (let round = -1; round < runs; round++) {
      for (const subject of rotate(subjects, Math.max(round, 0))) {
        const { agent } = await startAgent(subject.id, { baseUrl: llm.baseUrl, cwd: dir, ...(subject.launch ? { editorLaunch } : {}) });
        const name = nameOf(subject);
        try {
          await sleep(idleMs);
          const atIdle = memoryMb(agent.pid);
          const floor = subject.id.startsWith("floor");
          if (!floor) {
            llm.script([{ text: ["OK."] }, { text: streamDeltas(4000) }]);
            await promptToSettled(agent, "hello");
            await sleep(idleMs);
          }
          const afterPrompt = memoryMb(agent.pid);
          if (!floor) {
            await promptToSettled(agent, "stream please");
            await sleep(idleMs);
          }
          const afterStream = memoryMb(agent.pid);
          if (round < 0) continue;
          idle.add(name, atIdle.rss);
          idleAnon.add(name, atIdle.anon);
          after.add(name, afterPrompt.rss);
          afterAnon.add(name, afterPrompt.anon);
          stream.add(name, afterStream.rss);
          streamAnon.add(name, afterStream.anon);
        } finally {
          await agent.stop();
        }
      }
    }
  } finally {
    await llm.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const names = subjects.map(nameOf);
  const cells = (m: Metric) => names.map((name) => `${name} ${m.cell(name)}`).join(", ");
  console.log(`medians of ${runs} runs (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}):`);
  for (const m of [idle, idleAnon, after, afterAnon, stream, streamAnon]) console.log(`${m.label}: ${cells(m)}`);
  // Over the bare Node process of the same binary (the floor has no prompt: its idle figure).
  const ratio = (m: Metric, name: string) => (m.summary(name)!.median / idle.summary(`floor@${name.slice(name.indexOf("@") + 1, name.indexOf("@") + 3)}`)!.median).toFixed(2);
  const agents = names.filter((name) => !name.startsWith("floor"));
  console.log(`over a bare Node process (goal ≤ 1.2 x; idle / after a prompt / after the stream): ${agents.map((name) => `${name} ${ratio(idle, name)} / ${ratio(after, name)} / ${ratio(stream, name)}`).join("; ")}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

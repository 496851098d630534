/**
 * `npm run bench:ab`: two builds of the host side by side, alternating in the same run, for one
 * scenario; prints the medians and their ratio. How each change of session 3 was measured.
 *
 *   npm run bench:ab -- <startup|stream|tools|switch|skills> <runs> <a/agent-host.js> <b/agent-host.js> [host@20|host@22]
 *
 * e.g. build the current tree into dist/, a base commit into /tmp/base/dist/, then
 *   npm run bench:ab -- tools 9 /tmp/base/dist/agent-host.js dist/agent-host.js
 * Nothing is asserted; run it on a quiet machine.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startAgent, type Agent, type SubjectId } from "./lib/agent";
import { startBenchLlm, streamDeltas, type BenchLlm } from "./lib/llm";
import { writeSession } from "./lib/sessions";
import { writeSkillsFixture } from "./lib/skills";
import { sleep } from "./lib/stats";
import { promptToSettled } from "./scenarios";

type Figures = Record<string, number>;

const scenarios: Record<string, (agent: Agent, llm: BenchLlm, dir: string) => Promise<Figures>> = {
  async startup(agent) {
    await sleep(1000);
    return { idleRssMb: agent.memory().rssKb / 1024 };
  },
  async stream(agent, llm) {
    llm.script([{ text: ["OK."] }, { text: streamDeltas(4000) }]);
    const first = await promptToSettled(agent, "hi");
    const stream = await promptToSettled(agent, "stream");
    return { firstMs: first.ms, streamMs: stream.ms, streamCpuMs: stream.cpuMs, peakRssMb: agent.memory().hwmKb / 1024 };
  },
  async tools(agent, llm) {
    const turns = 100;
    llm.script([...Array.from({ length: turns }, () => ({ toolCall: { name: "read", arguments: { path: "tiny.txt" } } })), { text: ["Done."] }]);
    llm.reset();
    const { ms, cpuMs } = await promptToSettled(agent, "go");
    return { turnMs: (ms - llm.stats.serverMs) / llm.stats.requests, turnCpuMs: cpuMs / llm.stats.requests };
  },
  /** First prompt with 24 skills (6 more ignored) and 8 prompt templates, read then: frontmatter and ignore files. */
  async skills(agent, llm) {
    llm.script([{ text: ["OK."] }]);
    const first = await promptToSettled(agent, "hi");
    const reply = await agent.request({ type: "get_commands" });
    const commands = (reply.data as { commands: { source: string }[] }).commands;
    return { firstMs: first.ms, firstCpuMs: first.cpuMs, skills: commands.filter((c) => c.source === "skill").length, templates: commands.filter((c) => c.source === "prompt").length };
  },
  async switch(agent, _llm, dir) {
    const file = path.join(dir, "switch.jsonl");
    fs.copyFileSync(path.join(dir, "master.jsonl"), file);
    const cpu0 = agent.cpuMs();
    const t0 = performance.now();
    await agent.request({ type: "switch_session", sessionPath: file });
    const switchMs = performance.now() - t0;
    const switchCpuMs = agent.cpuMs() - cpu0;
    const cpu1 = agent.cpuMs();
    const t1 = performance.now();
    await agent.request({ type: "get_messages" });
    return { switchMs, switchCpuMs, messagesMs: performance.now() - t1, messagesCpuMs: agent.cpuMs() - cpu1, rssMb: agent.memory().rssKb / 1024 };
  },
};

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const [name = "", runsText = "7", a, b, subject = "host@22"] = process.argv.slice(2);
  const scenario = scenarios[name];
  if (!scenario || !a || !b || (subject !== "host@20" && subject !== "host@22")) {
    throw new Error("usage: npm run bench:ab -- <startup|stream|tools|switch|skills> <runs> <a/agent-host.js> <b/agent-host.js> [host@20|host@22]");
  }
  const llm = await startBenchLlm();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-bench-ab-"));
  fs.writeFileSync(path.join(dir, "tiny.txt"), "hello bench\n");
  if (name === "switch") writeSession(path.join(dir, "master.jsonl"), { entries: 2000, textChars: 3100, cwd: dir });
  const extraArgs = name === "skills" ? writeSkillsFixture(dir) : [];
  const samples: Record<"A" | "B", Record<string, number[]>> = { A: {}, B: {} };
  const runs = Math.max(1, Number(runsText));
  try {
    // Round -1 warms both builds (caches, page cache) and is not counted; the order alternates.
    for (let round = -1; round < runs; round++) {
      const order: ["A" | "B", string][] = round % 2 === 0 ? [["A", a], ["B", b]] : [["B", b], ["A", a]];
      for (const [side, hostJs] of order) {
        const { agent, startMs, startCpuMs } = await startAgent(subject as SubjectId, { baseUrl: llm.baseUrl, cwd: dir, hostJs, extraArgs });
        let figures: Figures;
        try {
          figures = { startMs, startCpuMs, ...(await scenario(agent, llm, dir)) };
        } finally {
          await agent.stop();
        }
        if (round < 0) continue;
        for (const [key, value] of Object.entries(figures)) (samples[side][key] ??= []).push(value);
      }
    }
  } finally {
    await llm.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${name}, ${subject}, ${runs} runs each: A = ${a}, B = ${b}`);
  for (const key of Object.keys(samples.A)) {
    const [ma, mb] = [median(samples.A[key]!), median(samples.B[key]!)];
    console.log(`${key.padEnd(14)} A ${ma.toFixed(2).padStart(9)}   B ${mb.toFixed(2).padStart(9)}   B/A ${(mb / ma).toFixed(3)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

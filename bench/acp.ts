/**
 * `--mode acp` beside `--mode rpc` (issue 36): start-up (spawn → first answer: rpc `get_state`, acp
 * `initialize`; and acp's `session/new`), and one streamed reply of 40 KB and 400 KB in 20-character
 * deltas (2,000 and 20,000 deltas; ACP gathers the deltas of one event-loop turn into one chunk), timed from the prompt to its answer
 * (acp: the session/prompt response; rpc: agent_end), with the host's CPU time. Raw JSONL clients,
 * so that only the host's work is in the figures. Median (min–max) of `--runs` rounds, alternating.
 *
 *   npm run build && npx tsx bench/acp.ts [--runs 5] [--sizes 40,400,4000]
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cpuMsOf } from "./lib/agent";
import { startBenchLlm, type BenchLlm } from "./lib/llm";
import { summarize } from "./lib/stats";

const HOST = process.env.BENCH_HOST_JS ?? path.join(__dirname, "..", "dist", "agent-host.js");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;
/** Reply sizes in KB (`--sizes 40,400,4000`). */
const sizes = (process.argv.includes("--sizes") ? process.argv[process.argv.indexOf("--sizes") + 1]! : "40,400").split(",").map((kb) => Number(kb) * 1000);

type Frame = Record<string, unknown> & { id?: unknown; method?: string; type?: string; result?: Record<string, unknown> };

class Host {
  private buffer = "";
  private waiters: { test: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  chunks = 0;
  chars = 0;
  constructor(readonly child: ChildProcess) {
    child.stdout!.on("data", (data: Buffer) => {
      this.buffer += data.toString();
      let nl: number;
      while ((nl = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (!line.trim()) continue;
        const frame = JSON.parse(line) as Frame;
        if (frame.method === "session/update" || frame.type === "message_update") this.chunks++;
        const update = (frame.params as { update?: { sessionUpdate?: string; content?: { text?: string } } } | undefined)?.update;
        if (update?.sessionUpdate === "agent_message_chunk") this.chars += update.content?.text?.length ?? 0;
        for (const w of [...this.waiters]) if (w.test(frame)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(frame);
        }
      }
    });
  }
  send(frame: object): void {
    this.child.stdin!.write(`${JSON.stringify(frame)}\n`);
  }
  wait(test: (f: Frame) => boolean): Promise<Frame> {
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }
  async stop(): Promise<void> {
    this.child.stdin!.end();
    if (this.child.exitCode === null) await new Promise((r) => this.child.once("exit", r));
  }
}

function launch(mode: "rpc" | "acp", llm: BenchLlm): { host: Host; cwd: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-acp-"));
  const agentDir = path.join(root, "agent");
  const cwd = path.join(root, "work");
  fs.mkdirSync(agentDir, { recursive: true });
  fs.mkdirSync(cwd);
  fs.writeFileSync(path.join(agentDir, "models.json"), JSON.stringify({ providers: { mock: { baseUrl: llm.baseUrl, api: "openai-completions", apiKey: "k", models: [{ id: "mock", input: ["text"], contextWindow: 1e6, maxTokens: 1e5 }] } } }));
  const child = spawn(process.execPath, [HOST, "--mode", mode, "--provider", "mock", "--model", "mock", "--no-session"], { cwd, env: { ...process.env, HOME: root, PI_CODING_AGENT_DIR: agentDir }, stdio: ["pipe", "pipe", "inherit"] });
  child.once("exit", () => fs.rmSync(root, { recursive: true, force: true }));
  return { host: new Host(child), cwd };
}

const deltas = (chars: number): string[] => Array.from({ length: chars / 20 }, (_, i) => `${i.toString(36).padStart(6, "0")} lorem ipsum.\n`.slice(0, 20));

async function startRpc(llm: BenchLlm): Promise<{ ms: number; host: Host }> {
  const t0 = performance.now();
  const { host } = launch("rpc", llm);
  host.send({ type: "get_state", id: "s" });
  await host.wait((f) => f.type === "response" && f.id === "s");
  return { ms: performance.now() - t0, host };
}

async function startAcp(llm: BenchLlm): Promise<{ ms: number; newMs: number; host: Host; sessionId: string }> {
  const t0 = performance.now();
  const { host, cwd } = launch("acp", llm);
  host.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });
  await host.wait((f) => f.id === 1);
  const ms = performance.now() - t0;
  host.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd, mcpServers: [] } });
  const created = await host.wait((f) => f.id === 2);
  return { ms, newMs: performance.now() - t0, host, sessionId: String(created.result!.sessionId) };
}

async function streamRpc(llm: BenchLlm, chars: number): Promise<{ ms: number; cpuMs: number }> {
  const { host } = await startRpc(llm);
  llm.script([{ text: deltas(chars) }]);
  const cpu0 = cpuMsOf(host.child.pid!);
  const t0 = performance.now();
  host.send({ type: "prompt", id: "p", message: "go" });
  await host.wait((f) => f.type === "agent_end");
  const result = { ms: performance.now() - t0, cpuMs: cpuMsOf(host.child.pid!) - cpu0 };
  await host.stop();
  return result;
}

async function streamAcp(llm: BenchLlm, chars: number): Promise<{ ms: number; cpuMs: number; chunks: number; chars: number }> {
  const { host, sessionId } = await startAcp(llm);
  llm.script([{ text: deltas(chars) }]);
  host.chunks = 0;
  host.chars = 0;
  const cpu0 = cpuMsOf(host.child.pid!);
  const t0 = performance.now();
  host.send({ jsonrpc: "2.0", id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "go" }] } });
  const answer = await host.wait((f) => f.id === 3);
  if (answer.result?.stopReason !== "end_turn") throw new Error(`prompt: ${JSON.stringify(answer)}`);
  const result = { ms: performance.now() - t0, cpuMs: cpuMsOf(host.child.pid!) - cpu0, chunks: host.chunks, chars: host.chars };
  await host.stop();
  return result;
}

const fmt = (samples: number[]): string => {
  const s = summarize(samples)!;
  return `${s.median.toFixed(0)} (${s.min.toFixed(0)}–${s.max.toFixed(0)})`;
};

async function main(): Promise<void> {
  const llm = await startBenchLlm();
  const figures: Record<string, number[]> = {};
  const add = (key: string, value: number) => (figures[key] ??= []).push(value);
  for (let round = -1; round < runs; round++) {
    const rpc = await startRpc(llm);
    await rpc.host.stop();
    const acp = await startAcp(llm);
    await acp.host.stop();
    if (round < 0) continue; // warm-up (compile cache)
    add("start-up rpc: spawn → get_state answered (ms)", rpc.ms);
    add("start-up acp: spawn → initialize answered (ms)", acp.ms);
    add("start-up acp: spawn → session/new answered (ms)", acp.newMs);
    for (const chars of sizes) {
      const kb = `${chars / 1000} KB`;
      const r = await streamRpc(llm, chars);
      add(`stream ${kb}, rpc: prompt → agent_end (ms)`, r.ms);
      add(`stream ${kb}, rpc: host CPU (ms)`, r.cpuMs);
      const a = await streamAcp(llm, chars);
      add(`stream ${kb}, acp: prompt → stopReason (ms)`, a.ms);
      add(`stream ${kb}, acp: host CPU (ms)`, a.cpuMs);
      if (a.chars !== chars) throw new Error(`${a.chars} characters arrived of ${chars}`);
      add(`stream ${kb}, acp: session/update notifications`, a.chunks);
    }
  }
  await llm.close();
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${runs} rounds, median (min–max)`);
  for (const [key, samples] of Object.entries(figures)) console.log(`${key.padEnd(52)} ${fmt(samples)}`);
}

void main();

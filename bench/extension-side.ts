/**
 * `npm run bench:extension`: the extension host's per-delta path without VS Code (issue 31): the
 * frames an agent writes, as bytes in 64 KB reads, through StreamTransport (line decoding,
 * JSON.parse), RpcClient (frame checks, events), the replay's EventHold, the chat's ChatEvents, Transcript and
 * coalesceAppends, to a sink that serializes each webview message as postMessage would. Four
 * streams of 100 KB and 1 MB: a `write` call's arguments in 20-character deltas (then the call
 * runs), an assistant message in 20-character deltas, a tool result (a bash tool's rolling
 * partial results, then the whole text), a codemode script's nested calls under its card, and a user
 * `!command`'s output in 1 KB deltas. Frames are
 * made in the wire format of our host and pi 0.87.1 (delta-only message_update). Prints the CPU time
 * per 100 KB beside the goal (≤ 50 ms) and the longest single task (aim: ≤ 16 ms).
 *
 *   npm run bench:extension                 5 runs each; rewrites bench/RESULTS-extension.md
 *   npm run bench:extension -- --runs 3 --sizes 100,1000 --no-write   (sizes in KB)
 *   npm run bench:extension -- --through-pool --no-write   each line as a pool of hosts writes it
 *     (`<session> <frame>`), split by PoolLines into a PooledTransport (extension/supervision/pool/)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { StreamTransport } from "../shared/node/stream-transport";
import { RpcClient } from "../shared/rpc/client";
import type { ToWebview } from "../shared/webview-protocol";
import { ChatEvents } from "../extension/chat/chat-events";
import { coalesceAppends } from "../extension/chat/coalesce-appends";
import { Transcript } from "../extension/chat/transcript";
import { EventHold } from "../extension/chat/session-replay";
import { num, summarize } from "./lib/stats";
import { PacedLines } from "../shared/node/paced-lines";
import { POOL_MAX_LINE_CHARS, PoolLines } from "../extension/supervision/pool/pool-lines";
import { PooledTransport } from "../extension/supervision/pool/pooled-transport";

/** Lines through a pool's demux (`--through-pool`) instead of a process's own stdout. */
const throughPool = process.argv.includes("--through-pool");

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const assistant = (content: unknown[], stopReason = "stop") => ({ role: "assistant", content, api: "openai-completions", provider: "mock", model: "mock", usage, stopReason, timestamp: 1 });
const update = (event: Record<string, unknown>) => ({ type: "message_update", usage, assistantMessageEvent: event });

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function fileText(chars: number): string {
  return "  const line = \"the quick brown fox jumps over the lazy dog\";\n".repeat(Math.ceil(chars / 62)).slice(0, chars);
}

/** The frames of one stream of about `chars` characters. */
const streams: Record<string, (chars: number) => unknown[]> = {
  "`write` call, arguments in 20-char deltas": (chars) => {
    const args = { path: "src/big.ts", content: fileText(chars) };
    const call = { type: "toolCall", id: "call_1", name: "write", arguments: args };
    const result = { content: [{ type: "text", text: `Successfully wrote ${chars} bytes to src/big.ts` }], details: {} };
    return [
      { type: "message_start", message: assistant([], "pending") },
      update({ type: "toolcall_start", contentIndex: 0, id: "call_1", toolName: "write" }),
      ...pieces(JSON.stringify(args), 20).map((delta) => update({ type: "toolcall_delta", contentIndex: 0, delta })),
      update({ type: "toolcall_end", contentIndex: 0, toolCall: call }),
      { type: "message_end", message: assistant([call], "toolUse") },
      { type: "tool_execution_start", toolCallId: "call_1", toolName: "write", args },
      { type: "tool_execution_end", toolCallId: "call_1", toolName: "write", result, isError: false },
    ];
  },
  "assistant message, 20-char text deltas": (chars) => {
    const text = fileText(chars);
    return [
      { type: "message_start", message: assistant([], "pending") },
      update({ type: "text_start", contentIndex: 0 }),
      ...pieces(text, 20).map((delta) => update({ type: "text_delta", contentIndex: 0, delta })),
      update({ type: "text_end", contentIndex: 0, content: text }),
      { type: "message_end", message: assistant([{ type: "text", text }]) },
    ];
  },
  "tool result (bash tool: rolling 50 KB partial results per 4 KB, then all)": (chars) => {
    const text = fileText(chars);
    const ids = { toolCallId: "call_2", toolName: "bash" };
    const updates = [];
    for (let end = 4096; end < chars; end += 4096) {
      updates.push({ type: "tool_execution_update", ...ids, args: { command: "cat big" }, partialResult: { content: [{ type: "text", text: text.slice(Math.max(0, end - 50_000), end) }], details: {} } });
    }
    return [
      { type: "tool_execution_start", ...ids, args: { command: "cat big" } },
      ...updates,
      { type: "tool_execution_end", ...ids, result: { content: [{ type: "text", text }], details: {} }, isError: false },
    ];
  },
  // Each nested call goes in under its parent's card, after the earlier ones (a linked list, not an array re-indexed per insert).
  "codemode script: one nested call (start, end) per 100 chars, under its card": (chars) => {
    const script = { toolCallId: "script", toolName: "codemode" };
    const nested = [];
    for (let i = 0; i < chars / 100; i++) {
      const ids = { toolCallId: `n${i}`, toolName: "mcp__docs__search", parentToolCallId: "script" };
      nested.push({ type: "tool_execution_start", ...ids, args: { query: `topic ${i}` } });
      nested.push({ type: "tool_execution_end", ...ids, result: { content: [{ type: "text", text: `result ${i}` }], details: {} }, isError: false });
    }
    return [{ type: "tool_execution_start", ...script, args: { code: "for (const t of topics) await tools.docs.search(t)" } }, ...nested, { type: "tool_execution_end", ...script, result: { content: [{ type: "text", text: "done" }], details: {} }, isError: false }];
  },
  "user `!command` output, 1 KB deltas": (chars) => pieces(fileText(chars), 1024).map((delta) => ({ type: "bash_execution_update", delta })),
};

/** One session of a pool whose stdout is `input`, split as HostPool splits it. */
function pooledTransport(input: PassThrough): PooledTransport {
  const transport = new PooledTransport("s1", { pid: undefined, write: () => true, onDrain: () => ({ dispose: () => undefined }), endInput: () => undefined, kill: () => undefined });
  const router = new PoolLines(new Map([["s1", transport]]), () => undefined, () => undefined);
  new PacedLines(input, { maxLineChars: POOL_MAX_LINE_CHARS, onLine: (line) => router.receiveLine(line) });
  return transport;
}

interface Figures {
  cpuMs: number;
  longestTaskMs: number;
  posted: number;
}

/** Replays the bytes through the extension's path, a 64 KB read per event-loop turn (as a pipe delivers them). */
async function replay(frames: unknown[], bash: boolean): Promise<Figures> {
  const prefix = throughPool ? "s1 " : "";
  const bytes = Buffer.from(frames.map((f) => prefix + JSON.stringify(f) + "\n").join(""));
  const input = new PassThrough();
  const transport = throughPool ? pooledTransport(input) : new StreamTransport(input, new PassThrough());
  const client = new RpcClient(transport);
  let posted = 0;
  const coalesced = coalesceAppends((message: ToWebview) => {
    // What postMessage does to each message: serialize it.
    posted += JSON.stringify(message).length;
  });
  const transcript = new Transcript((m) => coalesced.post(m));
  const events = new ChatEvents(transcript, { header: () => undefined });
  const bashKey = bash ? events.bashStarted("cat big", false) : undefined;
  // As the chat controller does: each event through the replay's hold (applied at once, no replay runs).
  const hold = new EventHold();
  let applied = 0;
  client.onEvent((event) => (applied++, hold.deliver(() => events.apply(event))));

  // The longest task: the longest time between two turns of the event loop (a read's lines can be
  // handed on over several turns, shared/node/paced-lines.ts).
  let longest = 0;
  let turnAt = performance.now();
  let watching = true;
  const turn = () => {
    const now = performance.now();
    longest = Math.max(longest, now - turnAt);
    turnAt = now;
    if (watching) setImmediate(turn);
  };
  setImmediate(turn);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < bytes.length; i += 65536) {
    input.write(bytes.subarray(i, i + 65536));
    await new Promise((resolve) => setImmediate(resolve));
  }
  while (applied < frames.length) await new Promise((resolve) => setImmediate(resolve));
  watching = false;
  if (bashKey) events.bashFinished(bashKey, { output: "", exitCode: 0, cancelled: false, truncated: false });
  await new Promise((resolve) => setTimeout(resolve, 60)); // the output and append windows close
  coalesced.dispose();
  const cpu = process.cpuUsage(cpu0);
  events.dispose();
  client.dispose();
  transport.dispose();
  return { cpuMs: (cpu.user + cpu.system) / 1000, longestTaskMs: longest, posted };
}

async function main(): Promise<void> {
  const runsArg = process.argv.indexOf("--runs");
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
  const sizesArg = process.argv.indexOf("--sizes");
  const sizes = sizesArg > 0 ? process.argv[sizesArg + 1]!.split(",").map((k) => Number(k) * 1000) : [100_000, 1_000_000];
  const rows = ["| stream | size | CPU ms (median of runs) | CPU ms per 100 KB (goal ≤ 50) | longest task ms (aim ≤ 16) | to the webview |", "| --- | --- | --- | --- | --- | --- |"];
  for (const [name, make] of Object.entries(streams)) {
    for (const chars of sizes) {
      const frames = make(chars);
      await replay(frames, name.includes("!command")); // warm-up
      const figures: Figures[] = [];
      for (let r = 0; r < runs; r++) figures.push(await replay(frames, name.includes("!command")));
      const cpu = summarize(figures.map((f) => f.cpuMs))!;
      const longest = summarize(figures.map((f) => f.longestTaskMs))!;
      const per100 = cpu.median / (chars / 100_000);
      rows.push(`| ${name} | ${chars / 1000} KB | ${num(cpu.median)} (${num(cpu.min)}–${num(cpu.max)}) | ${num(per100)} ${per100 <= 50 ? "**met**" : "**not met**"} | ${num(longest.median)} | ${num(figures[0]!.posted / 1000)} kB |`);
      console.log(rows.at(-1));
    }
  }
  console.log(["", ...rows].join("\n"));
  if (process.argv.includes("--no-write")) return;
  const load = os.loadavg().map((l) => l.toFixed(2)).join(" ");
  const file = path.join(__dirname, "RESULTS-extension.md");
  fs.writeFileSync(file, [
    "# Benchmark: the extension host's per-delta path (issue 31)",
    "",
    `Written by \`npm run bench:extension\` (bench/extension-side.ts) on ${new Date().toISOString().replace(/\.\d+Z$/, "Z")}; do not edit by hand.`,
    `Node ${process.version}, ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model.trim() ?? "?"}), load average at the end ${load}; ${runs} runs after a warm-up, medians (min–max).`,
    "",
    "The bytes an agent writes (delta-only frames, as our host and pi 0.87.1 send them), in 64 KB reads, one per",
    "event-loop turn, through StreamTransport, RpcClient, ChatEvents, Transcript and coalesceAppends, to a sink",
    "that serializes each webview message as postMessage does. CPU time is the process's (user + system)",
    "over the whole stream; the longest task is the longest time between two turns of the event loop.",
    "",
    ...rows,
    "",
  ].join("\n"));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});

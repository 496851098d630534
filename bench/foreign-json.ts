// What the foreign-JSON door (shared/foreign-json) costs per frame against plain JSON.parse, at
// the usual size (a 4,000-delta stream of message_update frames, as the client parses them in
// VS Code's extension host) and at 10x and more (a 1 MB frame: many objects, or one long string),
// and what reading null-prototype data costs afterwards. `node --expose-gc --import tsx bench/foreign-json.ts`; medians
// of 31 rounds after 5 discarded ones, in one process. Nothing asserts a timing.
import { parseJsonLine } from "../shared/jsonl";
import { inertMessage, parseForeignJson } from "../shared/foreign-json";

const delta = (i: number) =>
  JSON.stringify({
    type: "message_update",
    usage: { input: 10, output: i, cacheRead: 0, cacheWrite: 0, totalTokens: 10 + i },
    assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: `word${i} ` },
  });
const deltas = Array.from({ length: 4000 }, (_, i) => delta(i));
/** The same frames with an escape in the text (ANSI colour in tool output): the walk runs. */
const escaped = deltas.map((d) => d.replace("word", "\\u001b[1mword"));
const manyObjects = JSON.stringify({
  type: "response",
  command: "get_messages",
  success: true,
  data: { messages: Array.from({ length: 2500 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: [{ type: "text", text: `${"x".repeat(300)}${i}` }], timestamp: 1700000000000 + i })) },
});
const oneString = JSON.stringify({ type: "tool_execution_end", toolCallId: "t", toolName: "bash", result: { content: [{ type: "text", text: "y".repeat(1_000_000) }] }, isError: false });
const cloned = deltas.map((d) => structuredClone(JSON.parse(d) as unknown));

let sink: unknown;
const plain = deltas.map((d) => JSON.parse(d) as { assistantMessageEvent: { delta: string } });
const inert = deltas.map((d) => (parseForeignJson(d) as { value: { assistantMessageEvent: { delta: string } } }).value);
let total = 0;

/** Groups of variants measured alternately, round after round, so that load on the machine hits them alike. */
const groups: [string, () => void][][] = [
  [
    ["4,000 deltas: JSON.parse", () => deltas.forEach((d) => (sink = JSON.parse(d)))],
    ["4,000 deltas: parseJsonLine (the door, fast path)", () => deltas.forEach((d) => (sink = parseJsonLine(d)))],
    ["4,000 deltas holding a \\u escape: parseJsonLine (walk)", () => escaped.forEach((d) => (sink = parseJsonLine(d)))],
    ["4,000 deltas: parseForeignJson (always null-prototype)", () => deltas.forEach((d) => (sink = parseForeignJson(d)))],
    ["4,000 cloned webview messages: inertMessage (scan)", () => cloned.forEach((m) => (sink = inertMessage(m)))],
  ],
  [
    ["1 MB, 2,500 messages: JSON.parse", () => (sink = JSON.parse(manyObjects))],
    ["1 MB, 2,500 messages: parseJsonLine (fast path)", () => (sink = parseJsonLine(manyObjects))],
    ["1 MB, 2,500 messages: parseForeignJson (walk)", () => (sink = parseForeignJson(manyObjects))],
  ],
  [
    ["1 MB, one string: JSON.parse", () => (sink = JSON.parse(oneString))],
    ["1 MB, one string: parseJsonLine (fast path)", () => (sink = parseJsonLine(oneString))],
  ],
  [
    ["read a delta of 4,000 plain frames, 100 times", () => { for (let k = 0; k < 100; k++) for (const f of plain) total += f.assistantMessageEvent.delta.length; }],
    ["read a delta of 4,000 null-prototype frames, 100 times", () => { for (let k = 0; k < 100; k++) for (const f of inert) total += f.assistantMessageEvent.delta.length; }],
  ],
];

const gc = (globalThis as { gc?: () => void }).gc;
for (const group of groups) {
  const times = group.map((): number[] => []);
  for (let round = 0; round < 46; round++) {
    group.forEach(([, run], i) => {
      gc?.(); // with --expose-gc each run starts on a clean heap
      const before = process.cpuUsage();
      run();
      const used = process.cpuUsage(before);
      if (round >= 5) times[i]!.push((used.user + used.system) / 1000);
    });
  }
  const medians = times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!);
  group.forEach(([name], i) => console.log(`${name.padEnd(58)} ${medians[i]!.toFixed(2).padStart(7)} ms CPU  x${(medians[i]! / medians[0]!).toFixed(2)}`));
  console.log("");
}
void sink;
void total;

/**
 * A long conversation on its way to the webview, the extension's part in Node (issue 31, "Huge
 * sessions"): a transcript of N entries like a resumed session's (a user message, a tool card, an
 * answer of 400 characters), its reset through HistoryParts to a sink that serializes each message
 * as postMessage would (JSON), then the older entries as the webview asks for them: a batch per
 * ask, and all of them at once (find). Prints, per size: the reset (ms, KB), one batch asked for
 * (ms, KB; the median of 20), and all the rest (ms in total, the longest message's task, messages).
 *
 *   npx tsx bench/history-parts.ts                      20,000 and 200,000 entries
 *   npx tsx bench/history-parts.ts --entries 20000,200000,2000000
 */
import type { ToWebview } from "../shared/webview-protocol";
import type { ChatItem } from "../shared/chat-items";
import { HistoryParts } from "../extension/chat/history-parts";
import { Transcript } from "../extension/chat/transcript";

const words = "the agent reads a file and then edits the function so that tests pass while keeping the public interface stable ".repeat(4).slice(0, 400);

function entry(i: number): ChatItem {
  const key = `e${i}`;
  if (i % 3 === 0) return { key, kind: "user", text: `${i}: ${words}` };
  if (i % 3 === 1) return { key, kind: "tool", toolCallId: `call${i}`, name: "read", args: { path: `src/file${i}.ts` }, status: "done", output: words };
  return { key, kind: "assistant", blocks: [{ type: "text", text: `${i}: ${words}` }] };
}

function measure(entries: number) {
  const sent: { message: ToWebview; ms: number; bytes: number }[] = [];
  let parts: HistoryParts | undefined;
  const transcript = new Transcript((m) => parts!.send(m));
  parts = new HistoryParts(transcript, (message) => {
    const t = performance.now();
    const bytes = JSON.stringify(message).length;
    sent.push({ message, ms: performance.now() - t, bytes });
  });
  transcript.replaceAll(() => {
    for (let i = 0; i < entries; i++) transcript.upsert(entry(i));
  });
  const t0 = performance.now();
  sent.length = 0;
  transcript.replaceAll(() => undefined); // the reset of an empty one, then the real one timed
  sent.length = 0;
  transcript.replaceAll(() => {
    for (let i = 0; i < entries; i++) transcript.upsert(entry(i));
  });
  const resetMs = performance.now() - t0;
  const reset = sent.at(-1)!;
  const asks: { ms: number; bytes: number }[] = [];
  for (let k = 0; k < 20; k++) {
    const before = sent.length;
    const t = performance.now();
    parts.older(false);
    asks.push({ ms: performance.now() - t, bytes: sent.slice(before).reduce((n, s) => n + s.bytes, 0) });
  }
  asks.sort((a, b) => a.ms - b.ms);
  return new Promise<string>((resolve) => {
    const before = sent.length;
    const t = performance.now();
    parts.older(true);
    const done = () => {
      const rest = sent.slice(before);
      if (rest.at(-1)?.message.type === "history" && (rest.at(-1)!.message as { older: number }).older === 0) {
        const longest = Math.max(...rest.map((s) => s.ms));
        parts.dispose();
        resolve(
          `${entries.toLocaleString("en-US")} entries: reset (build and send) ${resetMs.toFixed(0)} ms, the message ${(reset.bytes / 1024).toFixed(0)} KB, serialized in ${reset.ms.toFixed(1)} ms; ` +
            `a batch asked for: ${asks[10]!.ms.toFixed(2)} ms (${(asks[10]!.bytes / 1024).toFixed(0)} KB); ` +
            `all the rest (find): ${rest.length} messages over ${(performance.now() - t).toFixed(0)} ms, the longest serialized in ${longest.toFixed(1)} ms`,
        );
      } else setTimeout(done, 5);
    };
    done();
  });
}

async function main(): Promise<void> {
  const i = process.argv.indexOf("--entries");
  const sizes = (i >= 0 ? process.argv[i + 1]! : "20000,200000").split(",").map(Number);
  for (const n of sizes) console.log(await measure(n));
}

void main();

import type { Readable } from "node:stream";
import { Fifo } from "../../shared/fifo";
import { LineDecoder } from "../../shared/jsonl";
import { LINE_BUDGET_MS } from "../../shared/node/paced-lines";

/**
 * An ACP agent's stdout for the SDK's NDJSON reader, a record at a time, and a turn of the event
 * loop given to the rest of the extension host after each LINE_BUDGET_MS of their handling
 * (shared/node/paced-lines.ts says why). The SDK reads its next record once the last one is
 * handed on to its handler, so the time between two reads is that record's handling. The agent's
 * output is paused while a read's records wait.
 */
export function pacedInput(input: Readable, onError: (message: string) => void, budgetMs = LINE_BUDGET_MS): ReadableStream<Uint8Array> {
  const waiting = new Fifo<string>();
  const encoder = new TextEncoder();
  const decoder = new LineDecoder({ onLine: (line) => waiting.push(line), onError });
  let ended = false;
  let wake: (() => void) | undefined;
  const woken = () => {
    const then = wake;
    wake = undefined;
    then?.();
  };
  input.on("data", (chunk: Buffer) => {
    decoder.push(chunk);
    input.pause();
    woken();
  });
  input.on("end", () => {
    decoder.end();
    ended = true;
    woken();
  });
  input.on("error", () => {
    ended = true;
    woken();
  });
  let sliceStart = performance.now();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (waiting.size === 0 && !ended) {
          // Nothing waits: the next read of the agent's output starts a slice of its own.
          while (waiting.size === 0 && !ended) {
            input.resume();
            await new Promise<void>((resolve) => (wake = resolve));
          }
          sliceStart = performance.now();
        } else if (performance.now() - sliceStart >= budgetMs) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
        const line = waiting.shift();
        if (line === undefined) return controller.close();
        controller.enqueue(encoder.encode(`${line}\n`));
      },
      cancel() {
        ended = true;
        waiting.drain();
        input.resume(); // what is left of the agent's output goes unread, not held
      },
    },
    { highWaterMark: 0 },
  );
}

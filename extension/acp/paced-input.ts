import type { Readable } from "node:stream";
import { LINE_BUDGET_MS, spentThisTurn } from "../../shared/node/paced-lines";

/**
 * Records handed to the SDK in one piece at most (and bytes). A slice starts with one record a
 * piece and doubles while pieces are handled in under an eighth of the budget, so the budget is
 * overrun by one cheap piece or one costly record at most.
 */
const LINES_PER_PIECE = 8;
const BYTES_PER_PIECE = 64 * 1024;
const LF = 0x0a;

/**
 * An ACP agent's stdout for the SDK's NDJSON reader, a few records at a time, and a turn of the
 * event loop given to the rest of the extension host after each LINE_BUDGET_MS of their handling
 * (shared/node/paced-lines.ts says why). The SDK reads its next piece once the last one's records
 * are handed on to its handlers, so the time between two reads is their handling. The bytes go
 * as they came (the SDK decodes them and holds a record cut between reads, within its limits);
 * the agent's output is paused while a read is handed on.
 */
export function pacedInput(input: Readable, budgetMs = LINE_BUDGET_MS): ReadableStream<Uint8Array> {
  let chunk: Buffer | undefined;
  let at = 0;
  let ended = false;
  let wake: (() => void) | undefined;
  const woken = () => {
    const then = wake;
    wake = undefined;
    then?.();
  };
  let failed: Error | undefined;
  const onData = (data: Buffer) => {
    chunk = chunk && at < chunk.length ? Buffer.concat([chunk.subarray(at), data]) : data;
    at = 0;
    input.pause();
    woken();
  };
  input.on("data", onData);
  const end = (error?: Error) => {
    ended = true;
    failed ??= error;
    woken();
  };
  input.on("end", () => end());
  input.on("close", () => end());
  input.on("error", (error) => end(error));
  let handedAt = performance.now();
  let linesPerPiece = 1;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!chunk || at >= chunk.length) {
          while (!chunk || at >= chunk.length) {
            if (ended) return failed ? controller.error(failed) : controller.close();
            input.resume();
            await new Promise<void>((resolve) => (wake = resolve));
          }
          linesPerPiece = 1;
        } else {
          // The time since the last piece went is its handling.
          linesPerPiece = performance.now() - handedAt < budgetMs / LINES_PER_PIECE ? Math.min(linesPerPiece * 2, LINES_PER_PIECE) : 1;
        }
        // One budget for the turn, shared with every other agent's reader (paced-lines.ts).
        if (spentThisTurn() >= budgetMs) {
          await new Promise((resolve) => setImmediate(resolve));
          linesPerPiece = 1;
        }
        if (!chunk) return; // cancelled meanwhile
        const from = at;
        for (let lines = 0; lines < linesPerPiece && at - from < BYTES_PER_PIECE; lines++) {
          const lf = chunk.indexOf(LF, at);
          at = lf === -1 ? chunk.length : lf + 1;
          if (lf === -1) break;
        }
        controller.enqueue(chunk.subarray(from, at));
        handedAt = performance.now();
      },
      cancel() {
        ended = true;
        chunk = undefined;
        // What is left of the agent's output goes unread, not held: an agent blocked on a full pipe could not exit.
        input.off("data", onData);
        input.resume();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The model's regex run off the host's thread, with a deadline. A JavaScript RegExp backtracks: a
 * pattern such as `(a+)+$` on a long line runs for ages, and on the host's own thread it hung the
 * session (no command, no Stop, no other tool answered). ripgrep, the usual path, is linear; the
 * Node search sends each file's text to this worker, and a file that takes longer than the
 * deadline ends the search with an error (the worker is terminated: the only way to stop a regex).
 */
import { workerThreads } from "./lazy-node";
import { abortError } from "./io";

/** A file's lines matched longer than this: the pattern backtracks (ripgrep needs milliseconds). */
export const DEFAULT_MATCH_DEADLINE_MS = 10_000;

// Plain JavaScript, evaluated in the worker: no bundle to find at run time.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const regex = new RegExp(workerData.source, workerData.flags);
parentPort.on("message", ({ text, limit }) => {
  const lines = text.split("\\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const found = [];
  for (let i = 0; i < lines.length && found.length < limit; i++) {
    const line = lines[i].endsWith("\\r") ? lines[i].slice(0, -1) : lines[i];
    if (regex.test(line)) found.push(i);
  }
  parentPort.postMessage(found);
});`;

export interface LineMatcher {
  /** The 0-based indexes of the lines of `text` that match, at most `limit`. */
  matchingLines(text: string, limit: number, signal: AbortSignal): Promise<number[]>;
  dispose(): Promise<void>;
}

export function startLineMatcher(regex: RegExp, deadlineMs = DEFAULT_MATCH_DEADLINE_MS): LineMatcher {
  const worker = new (workerThreads().Worker)(WORKER_SOURCE, {
    eval: true,
    workerData: { source: regex.source, flags: regex.flags.replace(/[gy]/g, "") },
    // A file's text and its lines: no more than the host itself would hold for it.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  worker.unref();
  let ended = false;
  const end = () => {
    ended = true;
    return worker.terminate().then(() => undefined);
  };
  return {
    matchingLines(text, limit, signal) {
      if (ended) return Promise.reject(new Error("the search has ended"));
      return new Promise<number[]>((resolve, reject) => {
        const settle = (error: Error | undefined, found?: number[]) => {
          clearTimeout(deadline);
          signal.removeEventListener("abort", onAbort);
          worker.off("message", onMessage);
          worker.off("error", onError);
          if (error) reject(error);
          else resolve(found!);
        };
        const onMessage = (found: number[]) => settle(undefined, found);
        const onError = (error: Error) => settle(error);
        const onAbort = () => {
          void end();
          settle(abortError());
        };
        const deadline = setTimeout(() => {
          void end();
          settle(new Error(`the pattern ${JSON.stringify(regex.source)} ran for over ${deadlineMs / 1000} s on one file: it backtracks (nested repetition such as (a+)+). Simplify it, or install ripgrep (rg), which is linear.`));
        }, deadlineMs);
        signal.addEventListener("abort", onAbort, { once: true });
        worker.on("message", onMessage);
        worker.on("error", onError);
        worker.postMessage({ text, limit });
      });
    },
    dispose: end,
  };
}

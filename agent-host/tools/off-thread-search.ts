/**
 * find's and grep's Node searches run in a worker thread. They match foreign patterns with
 * backtracking regexes: the model's grep pattern and globs (`(a+)+$`, or `*a*a*a*a*a*a*b` through
 * minimatch, runs for ages on a long line or name), and the repository's ignore rules. On the host's
 * own thread that hung the session: no command, no Stop, no other tool answered. In a worker, the
 * host stays free, Stop terminates the search at once (the only way to stop a regex), and a
 * search past the deadline ends with an error. fd and ripgrep, the usual path, are linear.
 */
import { builtFile } from "./built-file";
import type { GrepHits, GrepQuery } from "./grep-search";
import { abortError } from "./io";
import { workerThreads } from "./lazy-node";

/** What the host asks of the search worker (search-worker.ts) and what it answers. */
export type SearchRequest =
  | { kind: "grep"; query: Omit<GrepQuery, "signal"> }
  | { kind: "find"; pattern: string; root: string; max: number; through?: string };

export type SearchAnswer = { ok: GrepHits | string[] } | { error: string };

/** A search running longer than this ends with an error (a Node walk of 100,000 files takes seconds). */
export const DEFAULT_SEARCH_DEADLINE_MS = 120_000;

function runSearch(request: SearchRequest, signal: AbortSignal, deadlineMs: number): Promise<unknown> {
  if (signal.aborted) return Promise.reject(abortError());
  // Nothing of the host's: not its environment (keys a session's worker holds), not its stdout (the
  // RPC channel), not its stdin.
  const worker = new (workerThreads().Worker)(builtFile("search-worker.js"), { workerData: request, env: {}, argv: [], stdin: false, stdout: true, stderr: true });
  return new Promise((resolve, reject) => {
    let done = false;
    const settle = (error: Error | undefined, value?: unknown) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      signal.removeEventListener("abort", onAbort);
      void worker.terminate();
      if (error) reject(error);
      else resolve(value);
    };
    const onAbort = () => settle(abortError());
    const deadline = setTimeout(
      () => settle(new Error(`the search ran for over ${deadlineMs / 1000} s: a pattern that backtracks (nested repetition such as (a+)+, or many * in one glob), or a very large tree. Simplify the pattern; with ripgrep (rg) and fd installed, searches are linear.`)),
      deadlineMs,
    );
    signal.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (answer: SearchAnswer) => ("error" in answer ? settle(new Error(answer.error)) : settle(undefined, answer.ok)));
    worker.once("error", (error) => settle(error));
    worker.once("exit", (code) => settle(new Error(`the search stopped (worker exit code ${code})`)));
  });
}

export async function grepOffThread(query: GrepQuery, deadlineMs = DEFAULT_SEARCH_DEADLINE_MS): Promise<GrepHits> {
  const { signal, ...rest } = query;
  return (await runSearch({ kind: "grep", query: rest }, signal, deadlineMs)) as GrepHits;
}

/** `through`: walk.ts WalkOptions.through (the worker shares this process's descriptors). */
export async function findOffThread(search: { pattern: string; root: string; max: number; through?: string }, signal: AbortSignal, deadlineMs = DEFAULT_SEARCH_DEADLINE_MS): Promise<string[]> {
  return (await runSearch({ kind: "find", ...search }, signal, deadlineMs)) as string[];
}

/**
 * Runs one script in a worker thread (worker.ts) and answers its calls. The worker is the
 * boundary: the host terminates it when the run is aborted or the script's deadline passes (a
 * grace second after the worker's own interrupt), so a script that never yields (an endless
 * loop) stops without the host's help; its calls still running are cancelled.
 */
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { CallKind, HostMessage, OutputItem, ScriptFailure, StoreWrites, WorkerMessage, WorkerStart } from "./protocol";
import { errorText } from "../../../shared/error-text";
import { builtFile } from "../../tools/built-file";

/** Pi's heap limit for a script's VM. */
export const MEMORY_LIMIT_BYTES = 256 * 1024 * 1024;
/** After the deadline, the worker's own interrupt has this long before the host terminates it. */
const GRACE_MS = 1000;

/** The host's tsconfig has no DOM lib: WebAssembly's constructor, typed as far as used here. */
const wasmApi = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object } }).WebAssembly;
let compiled: object | undefined;
/** QuickJS compiled on the first script, then shared with every worker (a worker would take ~0.1 s to compile it). */
function quickJs(file: string): object {
  return (compiled ??= new wasmApi.Module(readFileSync(file)));
}

export interface ScriptRun {
  code: string;
  timeoutMs?: number;
  toolIds: string[];
  allTools: { name: string; description: string }[];
  store: Record<string, unknown>;
  /** A tool call or a discovery question: resolves to the value (JSON-able) or rejects with the error the script gets. */
  answer(kind: CallKind, name: string, args: unknown, signal: AbortSignal): Promise<unknown>;
  /** The run's abort. */
  signal: AbortSignal;
}

export type ScriptResult = { output: OutputItem[] } & ({ ok: true; value?: string; storeWrites: StoreWrites } | { ok: false; error: ScriptFailure });

/** Workers alive at once in this host (Pi's default, `PI_CODEMODE_MAX_WORKERS`): each may hold 256 MB. */
function maxWorkers(): number {
  const value = Number(process.env.PI_CODEMODE_MAX_WORKERS);
  return Number.isInteger(value) && value > 0 ? value : 2;
}
/** How long a script waits for a free worker before failing without running. */
const WORKER_WAIT_MS = 60_000;
let active = 0;
const waiting: (() => void)[] = [];

/** A worker slot, in arrival order; "aborted" or "timeout" when none came in time. */
function reserve(signal: AbortSignal, timeoutMs: number): Promise<"reserved" | "aborted" | "timeout"> {
  return new Promise((resolve) => {
    const settle = (outcome: "reserved" | "aborted" | "timeout"): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      const index = waiting.indexOf(grant);
      if (index >= 0) waiting.splice(index, 1);
      resolve(outcome);
    };
    const grant = (): void => settle("reserved");
    const onAbort = (): void => settle("aborted");
    const timer = setTimeout(() => settle("timeout"), timeoutMs);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    waiting.push(grant);
    admit();
  });
}

function admit(): void {
  while (waiting.length > 0 && active < maxWorkers()) {
    active++;
    waiting.shift()!();
  }
}

/** Runs the script once a worker slot is free; the wait counts toward its deadline. */
export async function runScript(run: ScriptRun): Promise<ScriptResult> {
  const startedAt = Date.now();
  const slot = await reserve(run.signal, Math.min(run.timeoutMs ?? Infinity, WORKER_WAIT_MS));
  if (slot === "aborted") return { output: [], ok: false, error: { kind: "aborted", message: "Execution aborted before the script started" } };
  if (slot === "timeout") {
    const message = run.timeoutMs !== undefined && run.timeoutMs <= WORKER_WAIT_MS ? `Execution timed out after ${run.timeoutMs} ms while waiting for a free codemode worker` : `No codemode worker became free within ${WORKER_WAIT_MS / 1000} seconds (at most ${maxWorkers()} run at once); the script did not start`;
    return { output: [], ok: false, error: { kind: "timeout", message } };
  }
  try {
    const waited = Date.now() - startedAt;
    return await runInWorker(run.timeoutMs === undefined ? run : { ...run, timeoutMs: Math.max(1, run.timeoutMs - waited) });
  } finally {
    // The slot is free once the worker is gone (runInWorker resolves after terminate()).
    active--;
    admit();
  }
}

function runInWorker(run: ScriptRun): Promise<ScriptResult> {
  const output: OutputItem[] = [];
  const calls = new AbortController();
  const start: WorkerStart = {
    wasm: quickJs(builtFile("quickjs.wasm")),
    code: run.code,
    ...(run.timeoutMs !== undefined ? { deadline: Date.now() + run.timeoutMs, timeoutMs: run.timeoutMs } : {}),
    memoryLimitBytes: MEMORY_LIMIT_BYTES,
    toolIds: run.toolIds,
    allTools: run.allTools,
    store: run.store,
  };
  return new Promise<ScriptResult>((resolve) => {
    let done = false;
    let hardStop: NodeJS.Timeout | undefined;
    // No env, no argv, no stdin: the worker needs none of the host's.
    const worker = new Worker(builtFile("codemode-worker.js"), { workerData: start, env: {}, argv: [], stdin: false, stdout: true, stderr: true, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    const end = (result: ScriptResult): void => {
      if (done) return;
      done = true;
      clearTimeout(hardStop);
      run.signal.removeEventListener("abort", onAbort);
      calls.abort(new Error("The script ended"));
      // Resolved once the worker is gone, so its slot (and its memory) is free again.
      worker.terminate().then(() => resolve(result), () => resolve(result));
    };
    const failed = (kind: ScriptFailure["kind"], message: string): void => end({ output, ok: false, error: { kind, message } });
    const onAbort = (): void => failed("aborted", "Execution aborted");
    if (run.signal.aborted) return onAbort();
    run.signal.addEventListener("abort", onAbort, { once: true });
    if (run.timeoutMs !== undefined) hardStop = setTimeout(() => failed("timeout", `Execution timed out after ${run.timeoutMs} ms`), run.timeoutMs + GRACE_MS);
    worker.on("message", (message: WorkerMessage) => {
      if (done) return;
      if (message.type === "output") output.push(message.item);
      else if (message.type === "done") end(message.ok ? { output, ok: true, ...(message.value === undefined ? {} : { value: message.value }), storeWrites: message.storeWrites } : { output, ok: false, error: message.error });
      else {
        const reply = (answer: HostMessage): void => {
          if (!done) worker.postMessage(answer);
        };
        let args: unknown;
        try {
          args = JSON.parse(message.args);
        } catch {
          args = {};
        }
        run.answer(message.kind, message.name, args, calls.signal).then(
          (value) => {
            const json = value === undefined ? undefined : JSON.stringify(value);
            reply(json === undefined ? { type: "reply", id: message.id, ok: true } : { type: "reply", id: message.id, ok: true, json });
          },
          (error: unknown) => reply({ type: "reply", id: message.id, ok: false, message: errorText(error) }),
        );
      }
    });
    worker.on("error", (error) => failed("sandbox", error.message));
    worker.on("exit", (code) => failed("sandbox", `The sandbox ended (exit code ${code}) before the script finished`));
  });
}

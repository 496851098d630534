/**
 * A codemode worker thread: runs one script in QuickJS (quickjs-wasi, the build pi 1.5.2 uses)
 * and ends. Bundled apart as dist/codemode-worker.js (esbuild.mjs); the host starts it per script
 * (sandbox.ts) and terminates it on abort or at the deadline, so a script that never yields
 * cannot stall the host. Inside, the script has QuickJS's language and the globals of prelude.ts,
 * nothing else: no Node, no host objects, no timers. Limits: QuickJS's heap (256 MB, Pi's) and
 * stack, `timeout_ms` through the interrupt handler, output size and count.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { JSValueHandle } from "quickjs-wasi" with { "resolution-mode": "import" };
import { PRELUDE } from "./prelude";
import type { CallKind, HostMessage, ScriptFailure, StoreWrites, WorkerMessage, WorkerStart } from "./protocol";
import { errorText } from "../../../shared/error-text";

/** Pi's limits on a script's output: characters of text and image data, and calls of text()/image()/console. */
const MAX_OUTPUT_CHARS = 16_777_216;
const MAX_OUTPUT_CALLS = 100_000;
/** One store() value, and all of them (Pi's). */
const MAX_STORE_VALUE = 262_144;
const MAX_STORE_TOTAL = 1_048_576;
/** A script's error text is cut here (a deep recursion's stack is long). */
const MAX_ERROR_CHARS = 4000;

const port = parentPort!;
const start = workerData as WorkerStart;
const post = (message: WorkerMessage): void => port.postMessage(message);

type Stop = { kind: "exit" } | { kind: "timeout" } | { kind: "limit"; message: string };

async function main(): Promise<void> {
  let stop: Stop | undefined;
  const deadline = start.deadline;
  // An ES module: imported, which esbuild bundles into the worker.
  const { QuickJS, MAX_STACK_SIZE } = await import("quickjs-wasi");
  const vm = await QuickJS.create({
    wasm: start.wasm as Parameters<typeof QuickJS.create>[0] extends { wasm: infer W } ? W : never,
    memoryLimit: start.memoryLimitBytes,
    maxStackSize: MAX_STACK_SIZE,
    interruptHandler: () => {
      if (stop) return true;
      if (deadline !== undefined && Date.now() > deadline) stop = { kind: "timeout" };
      return stop !== undefined;
    },
  });

  const pending = new Map<number, { resolve(value: JSValueHandle): void; reject(value: JSValueHandle): void }>();
  let nextId = 1;
  let wake: (() => void) | undefined;
  port.on("message", (message: HostMessage) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.ok) waiting.resolve(message.json === undefined ? vm.undefined : vm.newString(message.json));
    else waiting.reject(vm.newError(message.message));
    wake?.();
  });

  let outputChars = 0;
  let outputCalls = 0;
  const store = new Map(Object.entries(start.store).map(([k, v]) => [k, JSON.stringify(v)]));
  const writes: StoreWrites = { set: {}, delete: [] };
  let settled: { ok: true; value?: string } | { ok: false; message: string } | undefined;

  const str = (handle: JSValueHandle | undefined): string | undefined => (handle === undefined || handle.isUndefined ? undefined : handle.toString());
  const fn = (name: string, body: (...args: JSValueHandle[]) => JSValueHandle | undefined): JSValueHandle =>
    vm.newFunction(name, (...args) => body(...args) ?? vm.undefined);

  const hostFunctions = [
    fn("call", (kind, name, args) => {
      const deferred = vm.newPromise();
      // After exit() (or a limit) the script has ended: its remaining instructions, until the interrupt lands, reach nothing.
      if (stop) return deferred.handle;
      const id = nextId++;
      pending.set(id, deferred);
      post({ type: "call", id, kind: str(kind) as CallKind, name: str(name) ?? "", args: str(args) ?? "{}" });
      return deferred.handle;
    }),
    fn("emit", (kind, payload) => {
      if (stop) return undefined;
      const k = str(kind);
      const text = str(payload) ?? "";
      outputCalls++;
      outputChars += text.length;
      if (outputCalls > MAX_OUTPUT_CALLS || outputChars > MAX_OUTPUT_CHARS) {
        // Uncatchable: the interrupt handler stops the script at its next instruction.
        stop ??= { kind: "limit", message: `The script's output passed ${MAX_OUTPUT_CHARS} characters or ${MAX_OUTPUT_CALLS} text(), image() and console calls; write large data to a file with a tool instead.` };
        return undefined;
      }
      if (k === "image") {
        const { data, mimeType } = JSON.parse(text) as { data: string; mimeType: string };
        post({ type: "output", item: { type: "image", data, mimeType } });
      } else post({ type: "output", item: { type: "text", text, ...(k === "console" ? { console: true } : {}) } });
      return undefined;
    }),
    fn("storeSet", (key, json) => {
      if (stop) return undefined;
      const k = str(key) ?? "";
      const value = str(json);
      if (value === undefined) {
        store.delete(k);
        delete writes.set[k];
        if (!writes.delete.includes(k)) writes.delete.push(k);
        return undefined;
      }
      if (value.length > MAX_STORE_VALUE) throw new Error(`store(): a value may have at most ${MAX_STORE_VALUE} characters of JSON`);
      const total = [...store].reduce((sum, [other, v]) => sum + (other === k ? 0 : v.length), value.length);
      if (total > MAX_STORE_TOTAL) throw new Error(`store(): all values together may have at most ${MAX_STORE_TOTAL} characters of JSON`);
      store.set(k, value);
      writes.set[k] = JSON.parse(value);
      writes.delete = writes.delete.filter((d) => d !== k);
      return undefined;
    }),
    fn("storeGet", (key) => {
      const value = store.get(str(key) ?? "");
      return value === undefined ? undefined : vm.newString(value);
    }),
    fn("exit", () => {
      stop ??= { kind: "exit" };
      return undefined;
    }),
    fn("settle", (ok, text) => {
      settled ??= ok?.toString() === "true" ? { ok: true, ...(str(text) === undefined ? {} : { value: str(text)! }) } : { ok: false, message: (str(text) ?? "Error").slice(0, MAX_ERROR_CHARS) };
      return undefined;
    }),
    vm.newString(JSON.stringify(start.toolIds)),
    vm.newString(JSON.stringify(start.allTools)),
  ];

  const finish = (): WorkerMessage | undefined => {
    if (stop?.kind === "exit") return { type: "done", ok: true, storeWrites: writes };
    if (stop?.kind === "timeout") return { type: "done", ok: false, error: { kind: "timeout", message: `Execution timed out after ${start.timeoutMs ?? 0} ms` } };
    if (stop?.kind === "limit") return { type: "done", ok: false, error: { kind: "script", message: stop.message } };
    if (settled?.ok) return { type: "done", ok: true, ...(settled.value === undefined ? {} : { value: settled.value }), storeWrites: writes };
    if (settled) return { type: "done", ok: false, error: { kind: "script", message: settled.message } };
    return undefined;
  };

  const fail = (error: ScriptFailure): WorkerMessage => ({ type: "done", ok: false, error });

  let result: WorkerMessage | undefined;
  try {
    const prelude = vm.evalCode(PRELUDE, "prelude.js");
    const begin = vm.callFunction(prelude, vm.undefined, ...hostFunctions);
    let script: JSValueHandle;
    try {
      // The body of an async function, parsed as one: an unbalanced `})` cannot step out of it.
      const asyncFunction = vm.evalCode("(async () => {}).constructor", "prelude.js");
      script = vm.callFunction(asyncFunction, vm.undefined, vm.newString(start.code));
    } catch (error) {
      result = fail({ kind: "script", message: `${/^\w*Error/.test(errorText(error)) ? "" : "SyntaxError: "}${errorText(error)}` });
      throw error;
    }
    try {
      vm.callFunction(begin, vm.undefined, script).dispose();
    } catch (error) {
      result = finish() ?? fail({ kind: "script", message: errorText(error) });
    }
    while (!result) {
      try {
        vm.executePendingJobs();
      } catch {
        // An interrupted job: `stop` says why.
      }
      result = finish();
      if (result) break;
      if (pending.size === 0) {
        result = fail({ kind: "script", message: "The script waits on a promise that can never settle: no tool call is pending, and there are no timers." });
        break;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } catch (error) {
    result ??= finish() ?? fail({ kind: "sandbox", message: errorText(error) });
  }
  post(result);
}

main().catch((error: unknown) => post({ type: "done", ok: false, error: { kind: "sandbox", message: errorText(error) } }));

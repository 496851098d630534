/**
 * Messages between the host and a codemode worker (worker.ts). Only strings and plain data cross:
 * tool arguments and results go as JSON text, so no host object ever reaches the sandbox.
 */

/** What the worker starts with (its workerData). */
export interface WorkerStart {
  /** quickjs.wasm of quickjs-wasi, compiled once by the host and shared with each worker. */
  wasm: object;
  /** The script's body (the options line taken off). */
  code: string;
  /** Epoch ms at which the script is interrupted (its `timeout_ms`); none by default, as in Pi. */
  deadline?: number;
  timeoutMs?: number;
  memoryLimitBytes: number;
  /** `tools.<id>`: the identifiers of the tools the script may call. */
  toolIds: string[];
  /** `ALL_TOOLS`. */
  allTools: { name: string; description: string }[];
  /** What `load()` finds. */
  store: Record<string, unknown>;
}

export type CallKind = "tool" | "searchTools" | "describeTool" | "describeNamespace";

export type OutputItem = { type: "text"; text: string; console?: boolean } | { type: "image"; data: string; mimeType: string };

export type ScriptFailure = { kind: "script" | "timeout" | "aborted" | "sandbox"; message: string };

export interface StoreWrites {
  set: Record<string, unknown>;
  delete: string[];
}

/** Worker → host. */
export type WorkerMessage =
  | { type: "call"; id: number; kind: CallKind; name: string; args: string }
  | { type: "output"; item: OutputItem }
  | { type: "done"; ok: true; value?: string; storeWrites: StoreWrites }
  | { type: "done"; ok: false; error: ScriptFailure };

/** Host → worker: the answer to a call (`json` is the value as JSON text; absent for undefined). */
export type HostMessage = { type: "reply"; id: number; ok: true; json?: string } | { type: "reply"; id: number; ok: false; message: string };

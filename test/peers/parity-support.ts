/**
 * Helpers of the parity suites (host-parity*.test.ts, session-interop.test.ts): the same
 * scripted scenario against pi 0.87.1 and our host, each with its own mock LLM, and ways to
 * compare what they answered by shape rather than by value.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CommandParams, CommandType } from "../../shared/protocol";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import type { PeerKind } from "../support/peers";
import { startPeerClient, type Frame, type PeerClient, type StartOptions } from "./peer-client";

export type ParityKind = "pi" | "host";
export const PARITY_KINDS: readonly ParityKind[] = ["pi", "host"];

/**
 * The real pi the "pi" side runs: 0.87.1 by default, `PI_PARITY_PEER=pi-1.5.2` runs the same
 * suites against pi 1.5.2 (the script `test:parity:1.5.2`).
 */
export const PARITY_REFERENCE: PeerKind = parityReference(process.env.PI_PARITY_PEER);

function parityReference(name: string | undefined): PeerKind {
  if (name === undefined || name === "" || name === "pi") return "pi";
  if (name === "pi-1.5.2") return name;
  throw new Error(`PI_PARITY_PEER=${name}: expected pi or pi-1.5.2`);
}

export interface ParityPeer {
  kind: ParityKind;
  llm: MockLlm;
  peer: PeerClient;
  /** Sends a command and resolves with its raw response frame, whether it succeeded or not. */
  call<K extends CommandType>(type: K, params?: CommandParams<K>): Promise<Frame>;
  /** Like call, but fails unless the command succeeded; resolves with the response's data. */
  ok<K extends CommandType>(type: K, params?: CommandParams<K>): Promise<Record<string, unknown>>;
  /** Like call, but fails unless the command failed; resolves with the error message. */
  fails<K extends CommandType>(type: K, params?: CommandParams<K>): Promise<string>;
  /** Prompts and resolves, once the run has settled and a get_state round trip is done, with the frames written from the prompt on. */
  run(message: string): Promise<Frame[]>;
  /** Frames written from index `from` on. */
  since(from: number): Frame[];
  stop(): Promise<void>;
}

export interface ParityOptions extends StartOptions {
  /** Keep the session in this folder (`--session-dir`) instead of `--no-session`. */
  sessionDir?: string;
  /** Open this session file (`--session FILE`). */
  sessionFile?: string;
  /** Extra settings.json keys (retries are made fast by default). */
  settings?: Record<string, unknown>;
}

/**
 * Starts pi or our host on a fresh mock LLM. The agent dir offers two models, `mock` (selected)
 * and `mock-r` (reasoning), a prompt template `/hello` and a skill `tidy`.
 */
export async function startParityPeer(kind: ParityKind, options: ParityOptions = {}): Promise<ParityPeer> {
  const llm = await startMockLlm();
  const extraArgs = [...(options.extraArgs ?? [])];
  if (options.sessionDir) extraArgs.push("--session-dir", options.sessionDir);
  if (options.sessionFile) extraArgs.push("--session", options.sessionFile);
  const persist = options.sessionDir !== undefined || options.sessionFile !== undefined;
  const peer = launchPeer(kind, llm, {
    ...options,
    extraArgs,
    persistSession: persist,
    prepare(launch) {
      const models = path.join(launch.agentDir, "models.json");
      const config = JSON.parse(fs.readFileSync(models, "utf8")) as { providers: { mock: { models: Record<string, unknown>[] } } };
      const [base] = config.providers.mock.models;
      config.providers.mock.models.push({ ...base, id: "mock-r", name: "Mock reasoning", reasoning: true });
      fs.writeFileSync(models, JSON.stringify(config, null, 2));
      const settings = { retry: { enabled: true, maxRetries: 2, baseDelayMs: 50 }, ...options.settings };
      fs.writeFileSync(path.join(launch.agentDir, "settings.json"), JSON.stringify(settings));
      fs.mkdirSync(path.join(launch.agentDir, "prompts"), { recursive: true });
      fs.writeFileSync(path.join(launch.agentDir, "prompts", "hello.md"), "---\ndescription: Say hello\n---\nSay hello to $1\n");
      fs.mkdirSync(path.join(launch.agentDir, "skills", "tidy"), { recursive: true });
      fs.writeFileSync(path.join(launch.agentDir, "skills", "tidy", "SKILL.md"), "---\nname: tidy\ndescription: Tidy up the workspace\n---\nRemove temp files.\n");
      options.prepare?.(launch);
    },
  });
  const call = async <K extends CommandType>(type: K, params?: CommandParams<K>): Promise<Frame> => {
    const at = peer.sent.length;
    const pending = peer.client.request(type, (params ?? {}) as CommandParams<K>, { timeoutMs: 30_000 }).catch(() => undefined);
    const id = peer.sent[at]?.id;
    await pending;
    const response = peer.received.find((f) => f.type === "response" && f.id === id);
    assert.ok(response, `${kind}: no response to ${type} (${id})`);
    return response;
  };
  const self: ParityPeer = {
    kind,
    llm,
    peer,
    call,
    async ok(type, params) {
      const response = await call(type, params);
      assert.equal(response.success, true, `${kind}: ${type} failed: ${String(response.error)}`);
      return (response.data ?? {}) as Record<string, unknown>;
    },
    async fails(type, params) {
      const response = await call(type, params);
      assert.equal(response.success, false, `${kind}: ${type} succeeded: ${JSON.stringify(response.data)?.slice(0, 300)}`);
      return String(response.error);
    },
    async run(message) {
      const from = peer.received.length;
      const settled = peer.client.waitForSettled(30_000);
      await self.ok("prompt", { message });
      await settled;
      await self.ok("get_state");
      return self.since(from);
    },
    since: (from) => peer.received.slice(from),
    async stop() {
      await peer.stop();
      await llm.close();
    },
  };
  return self;
}

/** startPeerClient, closing the mock LLM when the agent cannot be started. */
function launchPeer(kind: ParityKind, llm: MockLlm, options: StartOptions): PeerClient {
  try {
    return startPeerClient(kind === "pi" ? PARITY_REFERENCE : kind, llm, options);
  } catch (error) {
    void llm.close();
    throw error;
  }
}

/** Runs the same scenario against pi and our host, side by side. */
export async function onBoth<T>(scenario: (side: ParityPeer) => Promise<T>, options: ParityOptions | ((kind: ParityKind) => ParityOptions) = {}): Promise<Record<ParityKind, T>> {
  const started = await Promise.allSettled(PARITY_KINDS.map((kind) => startParityPeer(kind, typeof options === "function" ? options(kind) : options)));
  const sides = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await Promise.all(sides.map((side) => side.stop()));
    throw failed.reason;
  }
  try {
    const results = await Promise.all(sides.map((side) => scenario(side)));
    return { pi: results[0]!, host: results[1]! };
  } finally {
    await Promise.all(sides.map((side) => side.stop()));
  }
}

/** Keys whose content is free-form (a record of named texts, a JSON schema, tool details): compared as "object" only. */
const OPAQUE = new Set(["sections", "parameters", "details", "arguments", "args", "partialResult"]);

/**
 * The type skeleton of a JSON value: primitives become their type name, objects their sorted keys
 * with each value's skeleton, arrays the sorted set of their elements' skeletons.
 */
export function shape(value: unknown, key = ""): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) {
    const items = new Map<string, unknown>();
    for (const item of value) {
      const s = shape(item);
      items.set(JSON.stringify(s), s);
    }
    return [...items.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, s]) => s);
  }
  if (typeof value === "object") {
    if (OPAQUE.has(key)) return "object";
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = shape((value as Record<string, unknown>)[k], k);
    return out;
  }
  return typeof value;
}

/**
 * Fields pi 0.87.1 writes that our host does not (yet), removed at any depth before comparing
 * shapes: `usage.reasoning` (reasoning tokens, already counted in `output`; the LLM layer does
 * not split them out) and the tools' `constrainedSampling` hint in a system message's
 * `toolsAdded` (our tools declare none).
 */
export const KNOWN_GAPS = ["reasoning", "constrainedSampling"];

/** A deep copy of a JSON value without the given keys, at any depth. */
export function dropKeys(value: unknown, keys: readonly string[] = KNOWN_GAPS): unknown {
  if (Array.isArray(value)) return value.map((v) => dropKeys(v, keys));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)).map(([k, v]) => [k, dropKeys(v, keys)]));
}

/** Drops the listed keys (dotted paths from the top) from a shape, for documented differences. */
export function without(s: unknown, ...keys: string[]): unknown {
  const copy = JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
  for (const key of keys) {
    const parts = key.split(".");
    let at: Record<string, unknown> | undefined = copy;
    for (const part of parts.slice(0, -1)) at = at?.[part] as Record<string, unknown> | undefined;
    if (at) delete at[parts.at(-1)!];
  }
  return copy;
}

/**
 * Events as comparable labels: type plus what identifies it (role, stop reason, user text,
 * queue contents, retry fields). message_update is left out here; see updatesByBlock.
 */
export function eventLabels(frames: readonly Frame[], options: { responses?: boolean } = {}): string[] {
  const labels: string[] = [];
  for (const f of frames) {
    const m = f.message as Record<string, unknown> | undefined;
    switch (f.type) {
      case "message_update":
      case "extension_ui_request":
        break;
      case "response":
        if (options.responses !== false) labels.push(`response:${String(f.command)}:${f.success ? "ok" : "error"}`);
        break;
      case "message_start":
      case "message_end": {
        const role = String(m?.role);
        const detail = role === "user" ? `:${JSON.stringify(m?.content)}` : role === "assistant" && f.type === "message_end" ? `:${String(m?.stopReason)}` : "";
        labels.push(`${f.type}(${role}${detail})`);
        break;
      }
      case "queue_update":
        labels.push(`queue_update${JSON.stringify([f.steering, f.followUp])}`);
        break;
      case "agent_end":
        labels.push(`agent_end(willRetry=${String(f.willRetry)})`);
        break;
      case "auto_retry_start":
        labels.push(`auto_retry_start(${String(f.attempt)}/${String(f.maxAttempts)})`);
        break;
      case "auto_retry_end":
        labels.push(`auto_retry_end(${String(f.success)},${String(f.attempt)})`);
        break;
      case "entry_appended":
        labels.push(`entry_appended(${String((f.entry as Record<string, unknown>).type)})`);
        break;
      case "thinking_level_changed":
        labels.push(`thinking_level_changed(${String(f.level)})`);
        break;
      case "session_info_changed":
        labels.push(`session_info_changed(${String(f.name)})`);
        break;
      default:
        labels.push(String(f.type));
    }
  }
  return labels;
}

/**
 * The assistantMessageEvent types of each streamed message, per content block. Pi may end a text
 * block after a later tool-call block has started (its docs: key by contentIndex), so the order
 * across blocks is not compared.
 */
export function updatesByBlock(frames: readonly Frame[]): Record<number, string[]>[] {
  const messages: Record<number, string[]>[] = [];
  for (const f of frames) {
    if (f.type === "message_start" && (f.message as { role?: string }).role === "assistant") messages.push({});
    if (f.type !== "message_update") continue;
    const event = f.assistantMessageEvent as { type: string; contentIndex?: number; delta?: string };
    // pi passes on the empty arguments of a tool call's first chunk as a toolcall_delta of ""; we skip it.
    if (event.type === "toolcall_delta" && event.delta === "") continue;
    const blocks = messages.at(-1)!;
    (blocks[event.contentIndex ?? -1] ??= []).push(event.type);
  }
  return messages;
}

export const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? "").join("") : "";

/**
 * Shared helpers of the peer suites: a real agent (pi 0.87.1, pi 0.73.1 or omp 18.2.3) started
 * through ProcessTransport and driven by our RpcClient, with every frame recorded both ways.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Disposable } from "vscode-jsonrpc";
import { ProcessTransport } from "../../shared/node/process-transport";
import type { AgentEvent, AssistantContent } from "../../shared/protocol";
import { RpcClient, type TransportClosed } from "../../shared/rpc";
import type { MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerKind, type PeerLaunch } from "../support/peers";

export const UI_FIXTURE = path.resolve(__dirname, "..", "fixtures", "extensions", "ui-dialogs.ts");

export type Frame = Record<string, unknown> & { type?: string; id?: string };

/** Frame types outside our protocol that each peer is known to write (recorded, not errors). */
export const EXPECTED_UNKNOWN: Record<PeerKind, readonly string[]> = {
  pi: [],
  "pi-1.5.2": [],
  "pi-legacy": [],
  host: [],
  omp: ["prompt_result"],
};

export interface PeerClient {
  kind: PeerKind;
  launch: PeerLaunch;
  transport: ProcessTransport;
  client: RpcClient;
  /** Every frame the agent wrote, as parsed JSON, in order. */
  received: Frame[];
  /** Every frame the client wrote. */
  sent: Frame[];
  /** client.onProtocolError messages. */
  protocolErrors: string[];
  /** Types of frames the client did not know (onUnknownFrame), in order. */
  unknownTypes: string[];
  /** Resolves with the first frame at index >= `from` of `received` that matches. */
  waitForFrame(match: (frame: Frame) => boolean, from?: number, timeoutMs?: number): Promise<Frame>;
  /** Ends the agent's input, waits for its exit (kills after a grace period), removes the temp dirs. */
  stop(): Promise<TransportClosed | undefined>;
}

export interface StartOptions {
  extensions?: string[];
  extraArgs?: string[];
  /** Working directory of the agent (default: a fresh temp folder). */
  cwd?: string;
  /** Drop the `--no-session` the launch recipes add (pass `--session-dir`/`--session` in extraArgs). */
  persistSession?: boolean;
  /** Called before the spawn, e.g. to rewrite `<agentDir>/models.json`. */
  prepare?(launch: PeerLaunch): void;
}

export function startPeerClient(kind: PeerKind, llm: MockLlm, options: StartOptions = {}): PeerClient {
  assertPeerInstalled(kind);
  const launch = peerLaunch(kind, { mockBaseUrl: llm.baseUrl, extensions: options.extensions, extraArgs: options.extraArgs, cwd: options.cwd });
  if (options.persistSession) launch.args = launch.args.filter((arg) => arg !== "--no-session");
  const received: Frame[] = [];
  const sent: Frame[] = [];
  const protocolErrors: string[] = [];
  const unknownTypes: string[] = [];
  const listeners = new Set<() => void>();
  let transport: ProcessTransport;
  try {
    options.prepare?.(launch);
    transport = ProcessTransport.spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env });
  } catch (error) {
    launch.cleanup();
    throw error;
  }
  const client = new RpcClient(transport, {
    requestTimeoutMs: 30_000,
    trace: (direction, frame) => {
      if (direction === "out") sent.push(frame as Frame);
      else {
        received.push(frame as Frame);
        for (const listener of [...listeners]) listener();
      }
    },
  });
  client.onProtocolError((message) => protocolErrors.push(message));
  client.onUnknownFrame((frame) => unknownTypes.push(frame.type));
  let closed: TransportClosed | undefined;
  client.onExit((info) => {
    closed = info;
    for (const listener of [...listeners]) listener();
  });

  const waitForFrame = (match: (frame: Frame) => boolean, from = 0, timeoutMs = 30_000): Promise<Frame> =>
    new Promise((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      const check = (): void => {
        for (let i = from; i < received.length; i++) {
          if (match(received[i]!)) return finish(), resolve(received[i]!);
        }
        if (closed) finish(), reject(new Error(`${kind} exited before the awaited frame: ${client.recentStderr.slice(-1500)}`));
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${kind}: no matching frame within ${timeoutMs} ms; last frames: ${JSON.stringify(received.slice(-3)).slice(0, 1500)}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });

  let stopped: Promise<TransportClosed | undefined> | undefined;
  const stop = (): Promise<TransportClosed | undefined> =>
    (stopped ??= (async () => {
      try {
        const exit = closed ? Promise.resolve(closed) : new Promise<TransportClosed>((resolve) => client.onExit(resolve));
        await transport.stop(5_000);
        return await exit;
      } finally {
        client.dispose();
        transport.dispose();
        launch.cleanup();
      }
    })());

  return { kind, launch, transport, client, received, sent, protocolErrors, unknownTypes, waitForFrame, stop };
}

export interface RunResult {
  events: AgentEvent[];
  /** How often onSettled fired from the prompt until a get_state round trip after the run. */
  settledCount: number;
}

/** Sends a prompt and collects the run's events until onSettled (then one get_state round trip). */
export async function runPrompt(peer: PeerClient, message: string): Promise<RunResult> {
  const events: AgentEvent[] = [];
  let settledCount = 0;
  const subs: Disposable[] = [peer.client.onEvent((e) => events.push(e)), peer.client.onSettled(() => settledCount++)];
  try {
    const settled = peer.client.waitForSettled(60_000);
    await peer.client.request("prompt", { message }, { timeoutMs: 60_000 });
    await settled;
    // A barrier: whatever the agent wrote before this response has been dispatched.
    await peer.client.request("get_state", {});
    return { events, settledCount };
  } finally {
    for (const sub of subs) sub.dispose();
  }
}

/** Assistant content reduced to what a UI shows (signatures and other extras dropped). */
export function normalizeContent(content: readonly AssistantContent[]): unknown[] {
  return content.map((block) => {
    switch (block.type) {
      case "text":
        return { type: "text", text: block.text };
      case "thinking":
        return { type: "thinking", thinking: block.thinking };
      case "toolCall":
        return { type: "toolCall", id: block.id, name: block.name, arguments: block.arguments };
    }
  });
}

/** Nothing the agent wrote failed checkOutbound, and frame types outside the protocol are only the known ones. */
export function assertCleanProtocol(peer: PeerClient, allowedErrors: (message: string) => boolean = () => false): void {
  const errors = peer.protocolErrors.filter((message) => !allowedErrors(message));
  assert.deepEqual(errors, [], `${peer.kind} wrote frames that failed checkOutbound`);
  const unexpected = [...new Set(peer.unknownTypes)].filter((type) => !EXPECTED_UNKNOWN[peer.kind].includes(type));
  assert.deepEqual(unexpected, [], `${peer.kind} wrote frame types outside the protocol`);
  assert.ok(peer.received.length > 0, `${peer.kind} wrote nothing`);
}

/** Stops the agent (end of input) and checks it exited by itself with code 0 and its temp dirs are gone. */
export async function assertStopsCleanly(peer: PeerClient): Promise<void> {
  const exit = await peer.stop();
  assert.deepEqual(exit, { code: 0, signal: null }, `${peer.kind} did not exit cleanly: ${peer.client.recentStderr.slice(-1000)}`);
  assert.ok(peer.client.isClosed);
  assert.equal(fs.existsSync(peer.launch.agentDir), false, "the temp agent dir was removed");
}

export function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

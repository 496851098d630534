/**
 * Self-check of the peer installs, the launch recipes and the mock LLM, speaking raw JSONL:
 *
 *   npx tsx test/support/smoke-peers.ts [pi|pi-legacy|omp ...] [--verbose]
 *
 * For each peer: get_state + prompt "hi" against one scripted reply; /ui-demo, /ui-timeout, /ui-abort
 * from test/fixtures/extensions/ui-dialogs.ts (dialogs answered); for omp also set_host_tools,
 * a host tool call answered with host_tool_result, and one cancelled by abort. Prints the frames
 * it saw (shortened unless --verbose) and exits non-zero if a check failed.
 */
import * as path from "node:path";
import { startMockLlm, toolNames, toolResultMessages, messageText, type MockLlm } from "./mock-llm";
import { startPeer, type Frame, type PeerProcess } from "./peer-process";
import { assertPeerInstalled, PEER_KINDS, peerVersion, type PeerKind } from "./peers";

const verbose = process.argv.includes("--verbose");
const kinds = process.argv.slice(2).filter((a) => !a.startsWith("--")) as PeerKind[];
const FIXTURE = path.resolve(__dirname, "..", "fixtures", "extensions", "ui-dialogs.ts");
const results: { name: string; ok: boolean; detail: string }[] = [];

function summarize(f: Frame): string {
  if (verbose) return JSON.stringify(f);
  const s = (v: unknown): string => JSON.stringify(v);
  switch (f.type) {
    case "message_update": {
      const e = f.assistantMessageEvent as { type: string; delta?: string; contentIndex?: number } | undefined;
      return `message_update ${e?.type}${e?.delta !== undefined ? " " + s(e.delta) : ""}`;
    }
    case "message_start":
    case "message_end":
    case "turn_end":
      return `${f.type} role=${(f.message as { role?: string } | undefined)?.role}`;
    case "agent_end":
      return `agent_end messages=${(f.messages as unknown[] | undefined)?.length}${"willRetry" in f ? " willRetry=" + s(f.willRetry) : ""}`;
    case "available_commands_update":
      return `available_commands_update (${(f.commands as unknown[]).length} commands)`;
    case "response": {
      const text = s(f);
      return text.length > 300 ? text.slice(0, 300) + "…" : text;
    }
    default: {
      const text = s(f);
      return text.length > 400 ? text.slice(0, 400) + "…" : text;
    }
  }
}

function dump(peer: PeerProcess, from: number, label: string): void {
  console.log(`  -- frames: ${label}`);
  for (let i = from; i < peer.frames.length; i++) console.log(`  ${String(peer.frameTimes[i]).padStart(6)}ms ${summarize(peer.frames[i]!)}`);
}

function check(name: string, ok: boolean, detail = ""): void {
  results.push({ name, ok, detail });
  console.log(`  ${ok ? "PASS" : "FAIL"} ${name}${detail ? ": " + detail : ""}`);
}

const isEnd = (kind: PeerKind) => (f: Frame): boolean => f.type === (kind === "pi" || kind === "pi-1.5.2" ? "agent_settled" : "agent_end");

async function chat(kind: PeerKind, llm: MockLlm): Promise<void> {
  llm.enqueue({ text: ["Hel", "lo ", "from mock"], usage: { promptTokens: 12, completionTokens: 3 } });
  const peer = startPeer(kind, { mockBaseUrl: llm.baseUrl });
  try {
    peer.sendRaw(JSON.stringify({ id: "1", type: "get_state" }));
    peer.sendRaw(JSON.stringify({ id: "2", type: "prompt", message: "hi" }));
    const state = await peer.waitFor((f) => f.type === "response" && f.id === "1", 30_000);
    const startMs = peer.frameTimes[peer.frames.indexOf(state)];
    await peer.waitFor(isEnd(kind), 30_000);
    await new Promise((r) => setTimeout(r, 200)); // trailing frames, if any
    dump(peer, 0, "get_state + prompt");
    check(`${kind}: get_state answered`, state.success === true, `after ${startMs} ms`);
    const end = peer.frames.find((f) => f.type === "message_end" && (f.message as { role?: string }).role === "assistant");
    const text = JSON.stringify((end?.message as { content?: unknown } | undefined)?.content ?? null);
    check(`${kind}: assistant text streamed`, text.includes("Hello from mock"), text);
    check(`${kind}: mock saw the prompt`, llm.requests.some((r) => r.body.messages.some((m) => m.role === "user" && messageText(m).endsWith("hi"))));
  } finally {
    console.log(`  exit code on stdin EOF: ${await peer.stop()}`);
  }
}

async function uiDemo(kind: PeerKind, llm: MockLlm): Promise<void> {
  const peer = startPeer(kind, { mockBaseUrl: llm.baseUrl, extensions: [FIXTURE] });
  const answers: Record<string, Record<string, unknown>> = {
    select: { value: "green" },
    confirm: { confirmed: true },
    input: { value: "Ada" },
    editor: { value: "edited text" },
  };
  const answered = new Set<string>();
  const timer = setInterval(() => {
    for (const f of peer.frames) {
      if (f.type !== "extension_ui_request" || typeof f.id !== "string" || answered.has(f.id)) continue;
      const answer = answers[f.method as string];
      if (answer && f.title !== "Quick, pick one" && f.title !== "Abort me") {
        answered.add(f.id);
        peer.send({ type: "extension_ui_response", id: f.id, ...answer });
      }
    }
  }, 10);
  try {
    peer.send({ id: "d1", type: "prompt", message: "/ui-demo" });
    const done = await peer.waitFor((f) => f.type === "extension_ui_request" && f.method === "set_editor_text", 30_000);
    await peer.waitFor((f) => f.type === "response" && f.id === "d1", 10_000);
    const from = peer.frames.length;
    peer.send({ id: "t1", type: "prompt", message: "/ui-timeout" });
    const timedOut = await peer.waitFor((f) => f.type === "extension_ui_request" && f.method === "notify" && String(f.message).startsWith("timeout:"), 10_000, from);
    await peer.waitFor((f) => f.type === "response" && f.id === "t1", 10_000, from);
    const from2 = peer.frames.length;
    peer.send({ id: "a1", type: "prompt", message: "/ui-abort" });
    const aborted = await peer.waitFor((f) => f.type === "extension_ui_request" && f.method === "notify" && String(f.message).startsWith("abort:"), 10_000, from2);
    await peer.waitFor((f) => f.type === "response" && f.id === "a1", 10_000, from2);
    await new Promise((r) => setTimeout(r, 100));
    dump(peer, 0, "/ui-demo, /ui-timeout, /ui-abort (startup frames included)");
    const notify = peer.frames.find((f) => f.type === "extension_ui_request" && f.method === "notify" && String(f.message).startsWith("color="));
    check(`${kind}: /ui-demo dialogs answered`, notify?.message === 'color="green" proceed=true name="Ada" text="edited text"', String(notify?.message));
    check(`${kind}: /ui-demo set_editor_text`, done.text === "from extension");
    check(`${kind}: /ui-timeout resolves by itself`, timedOut.message === "timeout: undefined", String(timedOut.message));
    check(`${kind}: /ui-abort resolves by itself`, aborted.message === "abort: false", String(aborted.message));
  } finally {
    clearInterval(timer);
    await peer.stop();
  }
}

/** The mock's error and hang turns against a real agent: 503 → auto-retry; hang → abort. */
async function mockFeatures(kind: PeerKind, llm: MockLlm): Promise<void> {
  const peer = startPeer(kind, { mockBaseUrl: llm.baseUrl });
  try {
    llm.enqueue({ kind: "error", status: 503, message: "overloaded" }, { text: "after retry", delayMs: 5 });
    const before = llm.requests.length;
    peer.send({ id: "e1", type: "prompt", message: "retry me" });
    await peer.waitFor(isEnd(kind), 30_000);
    const end = peer.frames.filter((f) => f.type === "message_end").at(-1);
    const text = JSON.stringify((end?.message as { content?: unknown } | undefined)?.content ?? null);
    dump(peer, 0, "503 then text");
    check(`${kind}: 503 turn is retried`, llm.requests.length - before === 2 && text.includes("after retry"), `${llm.requests.length - before} requests, ${text}`);

    llm.enqueue({ text: ["partial "], hangAfterChunks: true });
    let from = peer.frames.length;
    peer.send({ id: "e2", type: "prompt", message: "hang" });
    await peer.waitFor((f) => f.type === "message_update", 30_000, from);
    peer.send({ id: "e3", type: "abort" });
    await peer.waitFor((f) => f.type === "response" && f.id === "e3", 10_000, from);
    const hung = await llm.waitForDone(llm.requests.length - 1, 5_000);
    dump(peer, from, "hang after chunks, then abort");
    check(`${kind}: abort closes a hanging stream`, hung.aborted);

    llm.enqueue({ kind: "hang" });
    from = peer.frames.length;
    peer.send({ id: "e4", type: "prompt", message: "hang early" });
    await llm.waitForRequests(llm.requests.length + 1, 10_000);
    peer.send({ id: "e5", type: "abort" });
    await peer.waitFor((f) => f.type === "response" && f.id === "e5", 10_000, from);
    const hung2 = await llm.waitForDone(llm.requests.length - 1, 5_000);
    check(`${kind}: abort closes a request hanging before any chunk`, hung2.aborted);
  } finally {
    await peer.stop();
  }
}

async function ompHostTools(llm: MockLlm): Promise<void> {
  const peer = startPeer("omp", { mockBaseUrl: llm.baseUrl });
  try {
    peer.send({
      id: "h1",
      type: "set_host_tools",
      tools: [
        {
          name: "host_echo",
          label: "Host echo",
          description: "Echoes text back (executed by the host).",
          parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
          loadMode: "essential",
        },
      ],
    });
    await peer.waitFor((f) => f.type === "response" && f.id === "h1", 30_000);
    llm.enqueue({ toolCalls: [{ name: "host_echo", arguments: { text: "ping" }, argumentChunks: 4 }] }, { text: "echo done" });
    const before = llm.requests.length;
    let from = peer.frames.length;
    peer.send({ id: "h2", type: "prompt", message: "call the host tool" });
    const call = await peer.waitFor((f) => f.type === "host_tool_call", 30_000, from);
    peer.send({ type: "host_tool_update", id: call.id, partialResult: { content: [{ type: "text", text: "po" }] } });
    peer.send({ type: "host_tool_result", id: call.id, result: { content: [{ type: "text", text: "pong" }] } });
    await peer.waitFor((f) => f.type === "agent_end", 30_000, from);
    dump(peer, 0, "set_host_tools + host tool call answered");
    const first = llm.requests[before];
    check("omp: host tool offered to the model", first !== undefined && toolNames(first).includes("host_echo"), first ? toolNames(first).join(",") : "no request");
    const second = llm.requests[before + 1];
    const results = second ? toolResultMessages(second).map(messageText) : [];
    check("omp: mock received the host tool result", results.includes("pong"), JSON.stringify(results));

    // A host tool call cancelled by abort.
    llm.enqueue({ toolCalls: [{ name: "host_echo", arguments: { text: "slow" } }] });
    from = peer.frames.length;
    peer.send({ id: "h3", type: "prompt", message: "call it again" });
    const call2 = await peer.waitFor((f) => f.type === "host_tool_call", 30_000, from);
    peer.send({ id: "h4", type: "abort" });
    const cancel = await peer.waitFor((f) => f.type === "host_tool_cancel", 10_000, from);
    await peer.waitFor((f) => f.type === "response" && f.id === "h4", 10_000, from);
    await new Promise((r) => setTimeout(r, 200));
    dump(peer, from, "host tool call, then abort");
    check("omp: abort sends host_tool_cancel for the pending call", cancel.targetId === call2.id, JSON.stringify(cancel));
  } finally {
    await peer.stop();
  }
}

async function main(): Promise<void> {
  const selected = kinds.length > 0 ? kinds : [...PEER_KINDS];
  for (const kind of selected) {
    console.log(`\n=== ${kind} ${peerVersion(kind)}`);
    try {
      assertPeerInstalled(kind);
    } catch (e) {
      check(`${kind}: installed`, false, (e as Error).message);
      continue;
    }
    const llm = await startMockLlm();
    try {
      await chat(kind, llm);
      await uiDemo(kind, llm);
      await mockFeatures(kind, llm);
      if (kind === "omp") await ompHostTools(llm);
    } catch (e) {
      check(`${kind}: ran without error`, false, (e as Error).message);
    } finally {
      await llm.close();
    }
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`\n${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

void main();

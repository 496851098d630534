// set_delta_interval (ours): the bundled host joins consecutive deltas of one block and sends
// them at most once per interval, so a client that shows text at its own pace reads a line per
// interval instead of a line per provider delta. The joined stream must say exactly what the
// deltas said, in the same order as every other frame; 0 (the default) is pi's one per delta.
import { strict as assert } from "node:assert";
import { ProcessTransport } from "../../shared/node/process-transport";
import type { AgentEvent, AssistantMessageEvent } from "../../shared/protocol";
import { RpcClient, RpcError } from "../../shared/rpc";
import { DeltaPace, UNWATCHED_DELTA_INTERVAL_MS, WATCHED_DELTA_INTERVAL_MS } from "../../extension/supervision/delta-pace";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";

const chunks = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i} `);

describe("agent host: streamed deltas joined on request (set_delta_interval)", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let transport: ProcessTransport;
  let client: RpcClient;
  before(async () => (llm = await startMockLlm()));
  after(async () => llm?.close());
  beforeEach(() => {
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    transport = ProcessTransport.spawn(launch.command, launch.args, { env: launch.env, cwd: launch.cwd });
    client = new RpcClient(transport);
  });
  afterEach(async () => {
    await transport.stop();
    client.dispose();
    launch.cleanup();
  });

  /** One reply of 300 thinking, 300 text and 300 tool-argument deltas, a delta every ~1 ms; the events as they came. */
  async function streamReply(): Promise<{ events: AgentEvent[]; ms: number }> {
    const events: AgentEvent[] = [];
    const listening = client.onEvent((event) => events.push(event));
    const path = "notes/" + "x".repeat(40) + ".md";
    llm.enqueue({
      reasoning: chunks("t", 300),
      text: chunks("w", 300),
      toolCalls: [{ name: "no_such_tool", arguments: { path, content: chunks("c", 300).join("") }, argumentChunks: 300 }],
      delayMs: 1,
    });
    llm.enqueue({ text: "done" });
    const started = performance.now();
    const ended = client.waitFor("agent_end", () => true, 30_000);
    await client.request("prompt", { message: "go" });
    await ended;
    listening.dispose();
    return { events, ms: performance.now() - started };
  }

  const updates = (events: AgentEvent[]) =>
    events.flatMap((e) => (e.type === "message_update" && e.assistantMessageEvent ? [e.assistantMessageEvent as AssistantMessageEvent & { delta?: string }] : []));
  const textOf = (events: AgentEvent[], type: string) => updates(events).filter((u) => u.type === type).map((u) => u.delta ?? "").join("");
  /** The assistant's messages with runs of one delta type collapsed: the order of blocks and their starts and ends. */
  const shape = (events: AgentEvent[]) =>
    events
      .flatMap((e) => (e.type === "message_update" ? [`update:${e.assistantMessageEvent?.type}`] : "message" in e && (e.message as { role?: string } | undefined)?.role !== "assistant" ? [] : [e.type]))
      .filter((t, i, all) => !(t.endsWith("_delta") && all[i - 1] === t));

  it("sends one update per delta by default, as pi", async () => {
    assert.equal((await client.request("get_state", {})).deltaIntervalMs, 0);
    const { events } = await streamReply();
    const deltas = updates(events).filter((u) => u.type.endsWith("_delta"));
    assert.ok(deltas.length >= 850, `${deltas.length} deltas`);
  });

  it("joins the deltas of each block at most once per interval, the same text in the same order", async () => {
    const plain = await streamReply();
    assert.deepEqual(await client.request("set_delta_interval", { ms: 50 }), { ms: 50 });
    assert.equal((await client.request("get_state", {})).deltaIntervalMs, 50);
    const joined = await streamReply();
    for (const type of ["thinking_delta", "text_delta", "toolcall_delta"]) {
      assert.equal(textOf(joined.events, type), textOf(plain.events, type), type);
      assert.ok(textOf(plain.events, type).length > 1000, type);
    }
    assert.deepEqual(shape(joined.events), shape(plain.events));
    const count = updates(joined.events).filter((u) => u.type.endsWith("_delta")).length;
    // At most one per 50 ms window, plus the first of each block (sent at once) and its last.
    const bound = Math.ceil(joined.ms / 50) + 3 * 2;
    assert.ok(count <= bound, `${count} updates in ${Math.round(joined.ms)} ms (at most ${bound})`);
    const ends = joined.events.filter((e) => e.type === "message_end" && e.message.role === "assistant");
    const call = JSON.stringify(ends[0]);
    assert.ok(call.includes(chunks("c", 300).join("")), "the tool call's arguments whole in message_end");
  });

  it("refuses an interval over 250 ms", async () => {
    await assert.rejects(client.request("set_delta_interval", { ms: 1000 }), (e: RpcError) => e.kind === "failed" && /set_delta_interval/.test(e.message));
    assert.equal((await client.request("get_state", {})).deltaIntervalMs, 0);
  });

  it("the editor's pace: the long interval while no chat shows the stream, the short one while one does, what was held sent at once", async () => {
    // The supervisor's side (a ready agent) and a chat's surface, as the extension gives them.
    const listeners = { ready: [] as ((c: RpcClient) => void)[], visibility: [] as (() => void)[] };
    const event = <T>(list: ((e: T) => void)[]) => (listener: (e: T) => void) => (list.push(listener), { dispose: () => list.splice(list.indexOf(listener), 1) });
    const log = { debug: () => {}, warn: (message: string) => assert.fail(message) } as unknown as ConstructorParameters<typeof DeltaPace>[1];
    const agent = { readyClient: undefined as RpcClient | undefined, onReady: event(listeners.ready) };
    const pace = new DeltaPace(agent, log);
    const surface = { visible: false, onDidChangeVisibility: event<void>(listeners.visibility) };
    const watching = pace.watchWhileVisible(surface);
    const interval = async () => (await client.request("get_state", {})).deltaIntervalMs;
    await client.probe();
    agent.readyClient = client;
    for (const listener of listeners.ready) listener(client);
    assert.equal(await interval(), UNWATCHED_DELTA_INTERVAL_MS, "off screen from the start");
    const show = (visible: boolean) => {
      surface.visible = visible;
      for (const listener of [...listeners.visibility]) listener();
    };
    show(true);
    assert.equal(await interval(), WATCHED_DELTA_INTERVAL_MS, "on screen");
    show(false);
    assert.equal(await interval(), UNWATCHED_DELTA_INTERVAL_MS, "off screen again");

    // 400 text deltas, one every ~5 ms (2 s): off screen for the first second, then on screen.
    const arrivals: { at: number; delta: string }[] = [];
    const listening = client.onEvent((e) => {
      if (e.type === "message_update" && e.assistantMessageEvent?.type === "text_delta") arrivals.push({ at: performance.now(), delta: (e.assistantMessageEvent as { delta: string }).delta });
    });
    llm.enqueue({ text: chunks("w", 400), delayMs: 5 });
    const ended = client.waitFor("agent_end", () => true, 30_000);
    await client.request("prompt", { message: "go" });
    await client.waitFor("message_update", (e) => e.type === "message_update" && e.assistantMessageEvent?.type === "text_delta", 10_000);
    await new Promise((r) => setTimeout(r, 1000));
    const shownAt = performance.now();
    const before = arrivals.length;
    show(true);
    await ended;
    listening.dispose();
    watching.dispose();
    pace.dispose();
    assert.equal(arrivals.map((a) => a.delta).join(""), chunks("w", 400).join(""), "the same text, in order");
    const hidden = arrivals.slice(1, before);
    const gaps = hidden.slice(1).map((a, i) => a.at - hidden[i]!.at);
    assert.ok(hidden.length <= 6 && gaps.every((gap) => gap > UNWATCHED_DELTA_INTERVAL_MS * 0.6), `off screen: ${before} updates in 1 s, gaps ${gaps.map(Math.round).join(", ")} ms`);
    const first = arrivals[before];
    assert.ok(first && first.at - shownAt < 100, `the held text ${first ? Math.round(first.at - shownAt) : "never"} ms after the chat showed`);
    const shown = arrivals.slice(before + 1);
    assert.ok(shown.length >= 15, `on screen: ${shown.length} updates in the last second`);
  });
});

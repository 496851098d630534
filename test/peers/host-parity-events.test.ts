/**
 * Our host as a drop-in for `pi --mode rpc` (0.87.1), event by event: the same runs against both
 * (plain, tool call, steering and follow-up, abort, a 503 and its retry, queue and session
 * commands) must give the same event sequence and the same shape for every event kind.
 */
import { strict as assert } from "node:assert";
import { messageText } from "../support/mock-llm";
import type { Frame } from "./peer-client";
import { PARITY_REFERENCE, dropKeys, eventLabels, onBoth, shape, textOf, updatesByBlock, type ParityKind, type ParityPeer } from "./parity-support";
import { peerVersion } from "../support/peers";

type Scenes = Map<string, Frame[]>;

async function scenario(side: ParityPeer): Promise<Scenes> {
  const scenes: Scenes = new Map();
  const { llm, peer } = side;
  const mark = () => peer.received.length;
  const streaming = (from: number) => peer.waitForFrame((f) => f.type === "message_update", from);

  llm.enqueue({ text: ["Hel", "lo"] });
  scenes.set("plain run", await side.run("hi"));
  llm.enqueue({ text: "again" });
  scenes.set("second run", await side.run("hi again"));

  llm.enqueue({ text: ["Sure."], toolCalls: [{ id: "call_echo", name: "bash", arguments: { command: "echo hi" } }] }, { text: ["Done", "."] });
  scenes.set("tool run", await side.run("run echo hi"));

  // Steering and a follow-up sent while the first reply streams.
  let from = mark();
  // Long enough that the steer and follow-up land while it streams, even on a loaded machine.
  llm.enqueue({ text: ["a", "b", "c", "d", "e", "f"], delayMs: 150 }, { text: "steered" }, { text: "followed" });
  let settled = peer.client.waitForSettled();
  await side.ok("prompt", { message: "long" });
  await streaming(from);
  await side.call("steer", { message: "steer me" });
  await side.call("follow_up", { message: "follow me" });
  await settled;
  await side.ok("get_state");
  scenes.set("steering", side.since(from));

  // A prompt with streamingBehavior while busy is queued like steer / follow_up.
  from = mark();
  llm.enqueue({ text: ["x", "y", "z", "w", "v", "u"], delayMs: 150 }, { text: "then this" });
  settled = peer.client.waitForSettled();
  await side.ok("prompt", { message: "busy run" });
  await streaming(from);
  await side.ok("prompt", { message: "queued prompt", streamingBehavior: "followUp" });
  await settled;
  await side.ok("get_state");
  scenes.set("prompt with streamingBehavior", side.since(from));

  // Steering queued while idle joins the first turn of the next run.
  await side.ok("steer", { message: "early steer" });
  llm.enqueue({ text: "both seen" });
  scenes.set("idle steer", await side.run("start"));

  from = mark();
  await side.ok("follow_up", { message: "left over" });
  await side.ok("clear_queue");
  scenes.set("clear_queue", side.since(from));

  // Abort mid-stream: the abort response comes after the run has settled.
  from = mark();
  llm.enqueue({ text: ["partial"], hangAfterChunks: true });
  await side.ok("prompt", { message: "hang" });
  await streaming(from);
  await side.ok("abort");
  scenes.set("abort", side.since(from));

  // A 503, then the retry succeeds.
  llm.enqueue({ kind: "error", status: 503, message: "overloaded" }, { text: "recovered" });
  scenes.set("retry", await side.run("flaky"));

  from = mark();
  await side.ok("set_session_name", { name: "Named" });
  scenes.set("set_session_name", side.since(from));

  from = mark();
  await side.ok("set_thinking_level", { level: "high" }); // clamped to off: no event
  await side.ok("set_model", { provider: "mock", modelId: "mock-r" });
  await side.ok("set_thinking_level", { level: "high" });
  await side.ok("set_thinking_level", { level: "high" }); // unchanged: no event
  await side.ok("cycle_thinking_level");
  await side.ok("set_model", { provider: "mock", modelId: "mock" });
  scenes.set("thinking", side.since(from));

  // User shell commands: streamed output; excludeFromContext keeps one out of the next request.
  from = mark();
  await side.ok("bash", { command: "echo kept-in-context" });
  await side.ok("bash", { command: "echo secret-output", excludeFromContext: true });
  scenes.set("bash", side.since(from));
  llm.enqueue({ text: "seen" });
  await side.run("what did I run?");
  scenes.set("bash request", [{ type: "llm_request", messages: llm.requests.at(-1)!.body.messages } as Frame]);
  return scenes;
}

describe(`host parity: events of pi ${peerVersion(PARITY_REFERENCE)}`, function () {
  this.timeout(60_000);
  let scenes: Record<ParityKind, Scenes>;

  before(async function () {
    scenes = await onBoth(scenario);
  });

  const scene = (kind: ParityKind, name: string): Frame[] => {
    const frames = scenes[kind].get(name);
    assert.ok(frames, `${kind}: no scene "${name}"`);
    return frames;
  };
  const labels = (kind: ParityKind, name: string) => eventLabels(scene(kind, name));

  for (const name of ["plain run", "second run", "tool run", "steering", "prompt with streamingBehavior", "idle steer", "clear_queue", "abort", "retry", "set_session_name", "thinking"]) {
    it(`${name}: the same event sequence`, function () {
      assert.deepEqual(labels("host", name), labels("pi", name));
      assert.deepEqual(updatesByBlock(scene("host", name)), updatesByBlock(scene("pi", name)), "message_update kinds per content block");
    });
  }

  it("the first run records the system prompt as a system message; later runs do not", function () {
    for (const kind of ["pi", "host"] as const) {
      assert.deepEqual(labels(kind, "plain run").slice(0, 8), [
        "response:prompt:ok", "agent_start", "turn_start", "message_start(system)", "message_end(system)",
        'message_start(user:[{"type":"text","text":"hi"}])', 'message_end(user:[{"type":"text","text":"hi"}])', "message_start(assistant)",
      ], kind);
      const system = scene(kind, "plain run").find((f) => f.type === "message_end")!.message as Record<string, unknown>;
      assert.equal(system.content, "", kind);
      assert.ok(Object.keys(system.sections as object).includes("preamble"), kind);
      assert.deepEqual((system.toolsAdded as { name: string }[]).map((t) => t.name).sort(), ["bash", "edit", "read", "write"], kind);
      assert.ok(!labels(kind, "second run").includes("message_start(system)"), kind);
    }
  });

  it("steering: queue_update on each change, the steer as the next turn, then the follow-up", function () {
    for (const kind of ["pi", "host"] as const) {
      const seq = labels(kind, "steering").filter((l) => l.startsWith("queue_update") || l.startsWith("message_start(user") || l.startsWith("response:"));
      assert.deepEqual(seq, [
        "response:prompt:ok", 'message_start(user:[{"type":"text","text":"long"}])',
        'queue_update[["steer me"],[]]', "response:steer:ok", 'queue_update[["steer me"],["follow me"]]', "response:follow_up:ok",
        'queue_update[[],["follow me"]]', 'message_start(user:[{"type":"text","text":"steer me"}])',
        "queue_update[[],[]]", 'message_start(user:[{"type":"text","text":"follow me"}])', "response:get_state:ok",
      ], kind);
    }
  });

  it("abort: message_end aborted → turn_end → agent_end → agent_settled → the abort response", function () {
    for (const kind of ["pi", "host"] as const) {
      assert.deepEqual(labels(kind, "abort").slice(-5), ["message_end(assistant:aborted)", "turn_end", "agent_end(willRetry=false)", "agent_settled", "response:abort:ok"], kind);
      const end = scene(kind, "abort").find((f) => f.type === "message_end" && (f.message as { role: string }).role === "assistant")!;
      assert.equal((end.message as { errorMessage?: string }).errorMessage, "Request was aborted", kind);
    }
  });

  it("retry: agent_end willRetry, auto_retry_start, a context_edit dropping the failed reply, auto_retry_end", function () {
    for (const kind of ["pi", "host"] as const) {
      const frames = scene(kind, "retry");
      const failed = frames.find((f) => f.type === "message_end" && (f.message as { stopReason?: string }).stopReason === "error")!;
      // The error text is the provider layer's own (pi: `503: {"message":…}`); both name the status.
      assert.match(String((failed.message as { errorMessage?: string }).errorMessage), /503/, kind);
      const start = frames.find((f) => f.type === "auto_retry_start")!;
      assert.deepEqual([start.attempt, start.maxAttempts, start.delayMs], [1, 2, 50], kind);
      const edit = frames.find((f) => f.type === "entry_appended")!.entry as Record<string, unknown>;
      assert.equal(edit.type, "context_edit", kind);
      assert.equal(edit.replacement, null, kind);
      assert.deepEqual(frames.filter((f) => f.type === "agent_end").map((f) => f.willRetry), [true, false], kind);
    }
  });

  it("set_session_name and set_thinking_level emit their event before their response", function () {
    for (const kind of ["pi", "host"] as const) {
      assert.deepEqual(labels(kind, "set_session_name"), ["session_info_changed(Named)", "response:set_session_name:ok"], kind);
      assert.deepEqual(labels(kind, "thinking"), [
        "response:set_thinking_level:ok", "response:set_model:ok", "thinking_level_changed(high)", "response:set_thinking_level:ok",
        "response:set_thinking_level:ok", "thinking_level_changed(off)", "response:cycle_thinking_level:ok", "response:set_model:ok",
      ], kind);
    }
  });

  it("bash streams bash_execution_update with the command's id; excludeFromContext keeps it from the model", function () {
    for (const kind of ["pi", "host"] as const) {
      const frames = scene(kind, "bash");
      const responses = frames.filter((f) => f.type === "response");
      for (const response of responses) {
        const updates = frames.filter((f) => f.type === "bash_execution_update" && f.id === response.id);
        assert.ok(updates.length >= 1, kind);
        assert.ok(frames.indexOf(updates.at(-1)!) < frames.indexOf(response), `${kind}: updates come before the response`);
        assert.equal(updates.map((u) => String(u.delta)).join(""), (response.data as { output: string }).output, kind);
      }
      const sent = (scene(kind, "bash request")[0]!.messages as Parameters<typeof messageText>[0][]).map(messageText).join("\n");
      assert.match(sent, /kept-in-context/, kind);
      assert.doesNotMatch(sent, /secret-output/, kind);
    }
  });

  it("every event kind has the same shape", function () {
    const shapes = (kind: ParityKind) => {
      const byKind = new Map<string, Set<string>>();
      for (const frames of scenes[kind].values()) {
        for (const f of frames) {
          if (f.type === "response" || f.type === "llm_request") continue;
          const role = (f.message as { role?: string } | undefined)?.role;
          const event = f.assistantMessageEvent as { type?: string } | undefined;
          const key = `${String(f.type)}${role ? `(${role})` : ""}${event ? `(${String(event.type)})` : ""}`;
          const set = byKind.get(key) ?? new Set<string>();
          set.add(JSON.stringify(shape(dropKeys(f))));
          byKind.set(key, set);
        }
      }
      return new Map([...byKind].map(([k, v]) => [k, [...v].sort()]));
    };
    const [pi, host] = [shapes("pi"), shapes("host")];
    assert.deepEqual([...host.keys()].sort(), [...pi.keys()].sort(), "event kinds");
    for (const [key, piShapes] of pi) assert.deepEqual(host.get(key), piShapes, key);
  });

  it("user texts and replies arrive intact", function () {
    for (const kind of ["pi", "host"] as const) {
      const ends = scene(kind, "idle steer").filter((f) => f.type === "message_end").map((f) => f.message as { role: string; content: unknown });
      assert.deepEqual(ends.filter((m) => m.role !== "system").map((m) => [m.role, textOf(m.content)]), [["user", "start"], ["user", "early steer"], ["assistant", "both seen"]], kind);
    }
  });
});

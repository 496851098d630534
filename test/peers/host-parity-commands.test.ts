/**
 * Our host as a drop-in for `pi --mode rpc` (0.87.1), command by command: one scripted session
 * (kept in a session folder) runs against both, every response is recorded, and each step must
 * agree in success, error message and the shape of its data (keys and value types; ids,
 * timestamps, paths, ports, the system prompt text and token estimates may differ).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { piCommandTypes } from "../../shared/protocol";
import type { Frame } from "./peer-client";
import { PARITY_REFERENCE, dropKeys, onBoth, shape, without, type ParityKind, type ParityPeer } from "./parity-support";
import { peerVersion } from "../support/peers";

interface Recorded {
  steps: Map<string, Frame>;
  sessionDir: string;
  events: Frame[];
}

async function scenario(side: ParityPeer, sessionDir: string): Promise<Recorded> {
  const steps = new Map<string, Frame>();
  const rec = async (label: string, type: Parameters<ParityPeer["call"]>[0], params?: object): Promise<Frame> => {
    const frame = await side.call(type, params as never);
    steps.set(label, frame);
    return frame;
  };
  const data = (label: string) => steps.get(label)!.data as Record<string, unknown>;

  // A fresh session: nothing on disk yet.
  for (const type of ["get_state", "get_messages", "get_entries", "get_tree", "get_session_stats", "get_available_models", "get_available_thinking_levels", "get_commands", "get_last_assistant_text", "get_fork_messages", "clear_queue"] as const) {
    await rec(`fresh ${type}`, type);
  }
  await rec("cycle_model", "cycle_model");
  await rec("cycle_model back", "cycle_model");
  await rec("set_thinking_level (non-reasoning)", "set_thinking_level", { level: "high" });
  await rec("cycle_thinking_level (non-reasoning)", "cycle_thinking_level");
  for (const [type, params] of [
    ["set_steering_mode", { mode: "all" }], ["set_steering_mode", { mode: "one-at-a-time" }],
    ["set_follow_up_mode", { mode: "all" }], ["set_follow_up_mode", { mode: "one-at-a-time" }],
    ["set_auto_compaction", { enabled: false }], ["set_auto_compaction", { enabled: true }],
    ["set_auto_retry", { enabled: true }], ["abort_retry", {}], ["abort_bash", {}],
  ] as const) {
    await rec(`${type} ${JSON.stringify(params)}`, type, params);
  }
  await rec("steer (idle)", "steer", { message: "queued steer" });
  await rec("follow_up (idle)", "follow_up", { message: "queued follow-up" });
  await rec("clear_queue (two queued)", "clear_queue");

  // The documented error cases.
  await rec("error export_html (nothing saved)", "export_html");
  await rec("error compact (empty)", "compact");
  await rec("error fork (bad id)", "fork", { entryId: "no-such-entry" });
  await rec("error get_entries (unknown since)", "get_entries", { since: "no-such-entry" });
  await rec("error set_session_name (blank)", "set_session_name", { name: "   " });
  await rec("error set_model (unknown)", "set_model", { provider: "mock", modelId: "no-such-model" });
  await rec("error clone (not saved yet)", "clone");
  await rec("set_session_name", "set_session_name", { name: "Parity run" });

  // A first run: the session file appears.
  side.llm.enqueue({ text: ["Hello ", "there."], usage: { promptTokens: 40, completionTokens: 3 } });
  const firstRun = await side.run("first prompt");
  for (const type of ["get_state", "get_messages", "get_entries", "get_tree", "get_session_stats", "get_last_assistant_text", "get_fork_messages"] as const) {
    await rec(`after run ${type}`, type);
  }
  const entries = data("after run get_entries").entries as { id: string; type: string }[];
  await rec("get_entries since", "get_entries", { since: entries[1]!.id });
  await rec("error compact (tiny)", "compact");
  await rec("bash", "bash", { command: "echo parity", excludeFromContext: true });
  await rec("export_html", "export_html", { outputPath: path.join(sessionDir, "export.html") });
  // abort_bash cancels a running command; its bash response says so.
  const bashFrom = side.peer.received.length;
  const running = rec("bash (aborted)", "bash", { command: "echo started; sleep 10; echo never" });
  await side.peer.waitForFrame((f) => f.type === "bash_execution_update", bashFrom);
  await rec("abort_bash (running)", "abort_bash");
  await running;

  // A run that hangs: a second prompt needs streamingBehavior; abort answers after the run settles.
  side.llm.enqueue({ text: ["wait"], hangAfterChunks: true });
  const from = side.peer.received.length;
  await side.ok("prompt", { message: "hang" });
  await side.peer.waitForFrame((f) => f.type === "message_update", from);
  await rec("error prompt (busy)", "prompt", { message: "busy" });
  await rec("abort", "abort");

  // Models and thinking levels on a reasoning model.
  await rec("set_model", "set_model", { provider: "mock", modelId: "mock-r" });
  await rec("get_available_thinking_levels (reasoning)", "get_available_thinking_levels");
  await rec("set_thinking_level (reasoning)", "set_thinking_level", { level: "high" });
  await rec("cycle_thinking_level (reasoning)", "cycle_thinking_level");
  await rec("set_model back", "set_model", { provider: "mock", modelId: "mock" });

  // Session files: new, switch back, clone (saved), fork (from the first prompt).
  const file = String(data("after run get_state").sessionFile);
  await rec("new_session", "new_session");
  await rec("new_session get_state", "get_state");
  await rec("switch_session", "switch_session", { sessionPath: file });
  await rec("switch_session get_messages", "get_messages");
  await rec("clone", "clone");
  await rec("clone get_state", "get_state");
  const forkable = (await side.ok("get_fork_messages")).messages as { entryId: string; text: string }[];
  await rec("fork", "fork", { entryId: forkable[0]!.entryId });
  await rec("fork get_messages", "get_messages");
  return { steps, sessionDir, events: firstRun };
}

describe(`host parity: the 33 commands of pi ${peerVersion(PARITY_REFERENCE)}`, function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  let results: Record<ParityKind, Recorded>;

  before(async function () {
    results = await onBoth(
      (side) => scenario(side, dirs[side.kind === "pi" ? 0 : 1]!),
      (kind) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), `parity-${kind}-`));
        dirs[kind === "pi" ? 0 : 1] = dir;
        return { sessionDir: dir };
      },
    );
  });

  after(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  const step = (kind: ParityKind, label: string): Frame => {
    const frame = results[kind].steps.get(label);
    assert.ok(frame, `${kind}: no step "${label}"`);
    return frame;
  };

  it("exercises every command pi 0.87.1 has", function () {
    const recorded = new Set([...results.host.steps.values()].map((f) => String(f.command)));
    assert.equal(piCommandTypes.length, 33);
    assert.deepEqual(piCommandTypes.filter((t) => !recorded.has(t)), []);
  });

  it("answers every step with pi's success, error message and data shape", function () {
    assert.deepEqual([...results.host.steps.keys()], [...results.pi.steps.keys()]);
    for (const label of results.pi.steps.keys()) {
      const pi = step("pi", label);
      const host = step("host", label);
      assert.equal(host.success, pi.success, `${label}: success (pi: ${String(pi.error)}, host: ${String(host.error)})`);
      assert.equal(host.error, pi.error, `${label}: error message`);
      assert.equal(host.id, pi.id, `${label}: the response carries the command's id`);
      let [piShape, hostShape] = [shape(dropKeys(pi.data)), shape(dropKeys(host.data))];
      if (label.endsWith("get_state")) hostShape = without(hostShape, "interruptMode", "todoPhases", "permissionMode", "deltaIntervalMs"); // seed 001 additions, our permission mode and delta pacing
      if (["prompt", "steer", "follow_up"].includes(String(pi.command)) && pi.success) {
        // Pi 1.5's `disposition` (issue 16); pi 0.87.1 answers these without data.
        assert.equal(pi.data, undefined, label);
        assert.deepEqual(hostShape, { disposition: "string" }, label);
        continue;
      }
      if (label === "fresh get_last_assistant_text") {
        // pi's docs: "text is null if no assistant text exists"; pi 0.87.1 leaves the key out instead.
        assert.deepEqual(pi.data, {});
        assert.deepEqual(host.data, { text: null });
        continue;
      }
      if (label === "fresh get_commands") {
        // pi 0.87.1 also lists its built-in inline extension `llama` (we have no built-in extensions).
        const piCommands = (pi.data as { commands: { source: string; name: string }[] }).commands;
        assert.deepEqual(piCommands.filter((c) => c.source === "extension").map((c) => c.name), ["llama"]);
        piShape = shape({ commands: piCommands.filter((c) => c.source !== "extension") });
      }
      assert.deepEqual(hostShape, piShape, `${label}: data shape`);
    }
  });

  it("fails the documented error cases with pi's messages", function () {
    const expected: Record<string, string> = {
      "error export_html (nothing saved)": "Nothing to export yet - start a conversation first",
      "error compact (empty)": "Nothing to compact (session too small)",
      "error compact (tiny)": "Nothing to compact (session too small)",
      "error fork (bad id)": "Invalid entry ID for forking",
      "error get_entries (unknown since)": "Entry not found: no-such-entry",
      "error set_session_name (blank)": "Session name cannot be empty",
      "error set_model (unknown)": "Model not found: mock/no-such-model",
      "error clone (not saved yet)": "This session has not been saved yet. Wait for the first assistant response before cloning or forking it.",
      "error prompt (busy)": "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
    };
    for (const kind of ["pi", "host"] as const) {
      for (const [label, message] of Object.entries(expected)) assert.equal(step(kind, label).error, message, `${kind} ${label}`);
    }
  });

  it("agrees on the values that do not depend on the implementation", function () {
    for (const kind of ["pi", "host"] as const) {
      const data = (label: string) => step(kind, label).data as Record<string, unknown>;
      assert.deepEqual(data("fresh get_messages"), { messages: [] }, kind);
      assert.deepEqual((data("fresh get_entries").entries as { type: string }[]).map((e) => e.type), ["model_change", "thinking_level_change"], kind);
      assert.deepEqual(data("fresh get_available_thinking_levels"), { levels: ["off"] }, kind);
      assert.deepEqual(data("get_available_thinking_levels (reasoning)"), { levels: ["off", "minimal", "low", "medium", "high"] }, kind);
      assert.deepEqual(data("cycle_thinking_level (reasoning)"), { level: "off" }, kind);
      assert.equal(step(kind, "cycle_thinking_level (non-reasoning)").data, null, kind);
      assert.deepEqual(data("clear_queue (two queued)"), { steering: ["queued steer"], followUp: ["queued follow-up"] }, kind);
      assert.equal((data("cycle_model").model as { id: string }).id, "mock-r", kind);
      const fresh = String(data("fresh get_state").sessionFile);
      assert.equal(path.dirname(fresh), results[kind].sessionDir, kind);
      assert.match(path.basename(fresh), /^\d{4}-\d\d-\d\dT[\d-]+Z_[\w-]+\.jsonl$/, kind);
      const state = data("after run get_state");
      assert.equal(state.sessionName, "Parity run", kind);
      assert.equal(state.messageCount, 3, `${kind}: system, user, assistant`);
      assert.ok(fs.existsSync(String(state.sessionFile)), `${kind}: the session file exists`);
      const roles = (data("after run get_messages").messages as { role: string }[]).map((m) => m.role);
      assert.deepEqual(roles, ["system", "user", "assistant"], kind);
      const stats = data("after run get_session_stats");
      assert.equal(stats.totalMessages, 3, kind);
      assert.deepEqual(stats.tokens, { input: 40, output: 3, cacheRead: 0, cacheWrite: 0, total: 43 }, kind);
      assert.equal((stats.contextUsage as { tokens: number }).tokens, 43, `${kind}: the last reply's usage`);
      assert.deepEqual(data("after run get_last_assistant_text"), { text: "Hello there." }, kind);
      assert.deepEqual((data("after run get_fork_messages").messages as { text: string }[]).map((m) => m.text), ["first prompt"], kind);
      const all = data("after run get_entries").entries as { id: string }[];
      assert.deepEqual((data("get_entries since").entries as { id: string }[]).map((e) => e.id), all.slice(2).map((e) => e.id), kind);
      assert.deepEqual(data("bash"), { output: "parity\n", exitCode: 0, cancelled: false, truncated: false }, kind);
      assert.deepEqual(data("bash (aborted)"), { output: "started\n", cancelled: true, truncated: false }, kind);
      const commands = (data("fresh get_commands").commands as { name: string; source: string }[]).filter((c) => c.source !== "extension");
      assert.deepEqual(commands.map((c) => [c.name, c.source]), [["hello", "prompt"], ["skill:tidy", "skill"]], kind);
      assert.equal(data("export_html").path, path.join(results[kind].sessionDir, "export.html"), kind);
      assert.match(fs.readFileSync(String(data("export_html").path), "utf8"), /^<!DOCTYPE html>/i, kind);
      assert.deepEqual(data("new_session"), { cancelled: false }, kind);
      assert.equal(data("new_session get_state").messageCount, 0, kind);
      assert.deepEqual(data("switch_session"), { cancelled: false }, kind);
      assert.equal(data("clone get_state").sessionName, "Parity run", `${kind}: a clone keeps the name`);
      assert.notEqual(data("clone get_state").sessionFile, state.sessionFile, kind);
      assert.deepEqual(data("fork"), { text: "first prompt", cancelled: false }, kind);
      assert.deepEqual((data("fork get_messages").messages as { role: string }[]).map((m) => m.role), ["system"], `${kind}: the fork keeps what came before the prompt`);
    }
  });

  it("switch_session brings back the conversation as it was", function () {
    for (const kind of ["pi", "host"] as const) {
      const messages = (label: string) => (step(kind, label).data as { messages: { role: string }[] }).messages;
      const before = messages("after run get_messages");
      const after = messages("switch_session get_messages");
      // After the run: both shell commands (one excluded from context, one cancelled: both kept) and the aborted run.
      assert.deepEqual(after.slice(0, 3), before, kind);
      assert.deepEqual(after.slice(3).map((m) => m.role), ["bashExecution", "bashExecution", "user", "assistant"], kind);
      const [excluded, cancelled] = after.slice(3, 5) as { excludeFromContext?: boolean; cancelled?: boolean }[];
      assert.equal(excluded!.excludeFromContext, true, kind);
      assert.equal(cancelled!.cancelled, true, kind);
      assert.equal((after.at(-1) as { stopReason?: string }).stopReason, "aborted", kind);
    }
  });
});

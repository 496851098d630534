// The editor bridge (#35) with real pi 0.87.1 and 1.5.2: the editor's tools, declared once, reach
// an agent without set_host_tools through dist/pi-editor-bridge.mjs, and their answers reach the
// model; when the agent has the host-tool protocol the bridge registers none (omp: pi-bridge-omp).
import { strict as assert } from "node:assert";
import type { AgentEvent } from "../../shared/protocol";
import { messageText, toolNames, toolResultMessages } from "../support/mock-llm";
import { prompt, startBridgedPi, UNSAVED, type BridgedPi } from "./pi-bridge-support";

const names = ["editor_read", "editor_fail", "editor_stream", "editor_hang", "editor_big", "editor_echo", "editor_crafted"];

for (const kind of ["pi", "pi-1.5.2"] as const) {
  describe(`editor bridge with ${kind === "pi" ? "pi 0.87.1" : "pi 1.5.2"}`, function () {
    this.timeout(60_000);
    let pi: BridgedPi;
    const events: AgentEvent[] = [];
    before(async () => {
      pi = await startBridgedPi(kind);
      pi.peer.client.onEvent((event) => events.push(event));
    });
    after(() => pi?.stop());

    it("offers the editor's tools with the definitions the editor declared, and says it loaded", async () => {
      assert.ok(pi.bridge.bridgeLoaded, `the bridge said hello; stderr: ${pi.stderr().slice(-600)}`);
      pi.llm.enqueue({ text: "hi" });
      await prompt(pi, "Which tools?");
      const request = pi.llm.requests.at(-1)!;
      for (const name of names) assert.ok(toolNames(request).includes(name), `${name} offered (${toolNames(request).join(", ")})`);
      const read = request.body.tools!.find((tool) => tool.function.name === "editor_read")!;
      const declared = pi.handoff.tools.find((tool) => tool.name === "editor_read")!;
      assert.equal(read.function.description, declared.description);
      assert.deepEqual((read.function.parameters as { required: string[] }).required, ["path"]);
      assert.deepEqual(Object.keys((read.function.parameters as { properties: object }).properties), ["path"]);
    });

    it("editor_read answers the unsaved buffer through the bridge, with pi's tool call id and the model's arguments", async () => {
      const before = pi.llm.requests.length;
      pi.llm.enqueue({ toolCalls: [{ id: "call_read", name: "editor_read", arguments: { path: "src/greet.ts" } }] }, { text: "read it" });
      await prompt(pi, "Read greet");
      const results = toolResultMessages(pi.llm.requests[before + 1]!);
      assert.equal(results.length, 1);
      assert.ok(messageText(results[0]!).endsWith(UNSAVED), messageText(results[0]!));
      const call = pi.seen.at(-1)!;
      assert.deepEqual([call.name, { ...call.args }, call.toolCallId], ["editor_read", { path: "src/greet.ts" }, "call_read"]);
    });

    it("an editor error is a failed tool result; updates stream as tool_execution_update", async () => {
      const from = events.length;
      pi.llm.enqueue({ toolCalls: [{ id: "call_fail", name: "editor_fail", arguments: {} }, { id: "call_stream", name: "editor_stream", arguments: {} }] }, { text: "ok" });
      await prompt(pi, "Fail and stream");
      const ends = events.slice(from).filter((e): e is Extract<AgentEvent, { type: "tool_execution_end" }> => e.type === "tool_execution_end");
      const failed = ends.find((e) => e.toolCallId === "call_fail")!;
      assert.equal(failed.isError, true);
      assert.match(JSON.stringify(failed.result), /is a folder, not a file/);
      const updates = events.slice(from).filter((e) => e.type === "tool_execution_update" && e.toolCallId === "call_stream").map((e) => JSON.stringify((e as { partialResult: unknown }).partialResult));
      assert.ok(updates.some((u) => u.includes("halfway")) && updates.some((u) => u.includes("almost")), updates.join("\n"));
      assert.match(JSON.stringify(ends.find((e) => e.toolCallId === "call_stream")!.result), /streamed/);
    });

    it("a long answer of multi-byte characters arrives whole (characters split across chunks)", async () => {
      // Several lengths and widths, so that chunk boundaries fall inside characters whatever the chunk sizes.
      for (const [char, size] of [["€", 40_000], ["€", 40_001], ["é", 50_001], ["😀", 30_001], ["😀", 30_002]] as const) {
        const from = pi.llm.requests.length;
        pi.llm.enqueue({ toolCalls: [{ name: "editor_big", arguments: { size, char } }] }, { text: "ok" });
        await prompt(pi, "wide characters");
        const text = messageText(toolResultMessages(pi.llm.requests[from + 1]!).at(-1)!);
        assert.ok(text === char.repeat(size), `${char} × ${size}: ${text.length} UTF-16 units, ${(text.match(/\uFFFD/g) ?? []).length} replacement characters`);
      }
    });

    it("figures: calls on the channel, small and ten times editor_read's 50 KB window, and a 100 KB result through pi", async () => {
      const call = async (name: string, args: object) => {
        const answer = await fetch(`${pi.handoff.url}/tools/${name}`, { method: "POST", headers: { authorization: `Bearer ${pi.handoff.token}` }, body: JSON.stringify({ toolCallId: "f", arguments: args }) });
        return answer.text();
      };
      const median = async (count: number, name: string, args: object) => {
        const times: number[] = [];
        for (let i = 0; i < count; i++) {
          const started = performance.now();
          await call(name, args);
          times.push(performance.now() - started);
        }
        return times.sort((a, b) => a - b)[Math.floor(count / 2)]!;
      };
      await median(20, "editor_read", { path: "a" }); // warm
      const small = await median(200, "editor_read", { path: "a" });
      const big = await median(20, "editor_big", { size: 500_000 });
      // Through pi (the scripted model's context is 128k tokens: 500 KB would be compacted away).
      const size = 100_000;
      const from = pi.llm.requests.length;
      pi.llm.enqueue({ toolCalls: [{ name: "editor_big", arguments: { size } }] }, { text: "ok" });
      const started = performance.now();
      await prompt(pi, "big");
      const run = performance.now() - started;
      assert.equal(messageText(toolResultMessages(pi.llm.requests[from + 1]!).at(-1)!).length, size, "the whole text reached the model");
      console.log(`      figures: ${kind}: on the channel (no pi) median ${small.toFixed(2)} ms a call (200), ${big.toFixed(1)} ms for 500 KB (20); a prompt whose editor tool answers 100 KB ${run.toFixed(0)} ms in all`);
    });

    for (const command of ["new_session", "fork"] as const) {
      it(`after ${command} the editor tools still answer (the extension runtime may be rebuilt)`, async () => {
        if (command === "fork") {
          const entries = (await pi.peer.client.request("get_fork_messages", {})) as { messages: { entryId: string }[] };
          await pi.peer.client.request("fork", { entryId: entries.messages.at(-1)!.entryId });
        } else await pi.peer.client.request("new_session", {});
        const before = pi.llm.requests.length;
        pi.llm.enqueue({ toolCalls: [{ id: `call_after_${command}`, name: "editor_read", arguments: { path: "src/greet.ts" } }] }, { text: "read it" });
        await prompt(pi, `Read again after ${command}`);
        assert.ok(toolNames(pi.llm.requests[before]!).includes("editor_read"), `offered after ${command}: ${toolNames(pi.llm.requests[before]!).join(", ")}; stderr ${pi.stderr().slice(-400)}`);
        assert.ok(messageText(toolResultMessages(pi.llm.requests[before + 1]!).at(-1)!).endsWith(UNSAVED));
      });
    }

    it("abort cancels the editor's tool: its token is cancelled and nothing keeps running", async () => {
      pi.llm.enqueue({ toolCalls: [{ id: "call_hang", name: "editor_hang", arguments: {} }] }, { text: "after" });
      const settled = pi.peer.client.waitForSettled();
      await pi.peer.client.request("prompt", { message: "Hang" });
      const deadline = Date.now() + 20_000;
      while (!pi.seen.some((c) => c.toolCallId === "call_hang") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const started = Date.now();
      await pi.peer.client.request("abort", {});
      await settled;
      while (pi.bridge.running > 0 && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 10));
      const call = pi.seen.find((c) => c.toolCallId === "call_hang")!;
      assert.equal(call.cancelled, true, "the editor's cancellation token fired");
      assert.equal(pi.bridge.running, 0);
      console.log(`      figures: ${kind}: abort to the editor tool cancelled in ${Date.now() - started} ms`);
    });
  });

  describe(`editor bridge with ${kind === "pi" ? "pi 0.87.1" : "pi 1.5.2"} and the host-tool protocol found`, function () {
    this.timeout(60_000);
    let pi: BridgedPi;
    before(async () => (pi = await startBridgedPi(kind, "protocol")));
    after(() => pi?.stop());

    it("the bridge registers no tool, so that set_host_tools alone would offer them", async () => {
      pi.llm.enqueue({ text: "hi" });
      await prompt(pi, "Which tools?");
      const offered = toolNames(pi.llm.requests.at(-1)!);
      assert.deepEqual(offered.filter((name) => name.startsWith("editor_")), [], offered.join(", "));
      assert.ok(offered.includes("read"), "pi's own tools stay");
    });
  });
}

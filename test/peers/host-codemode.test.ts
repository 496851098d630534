/**
 * Codemode in our host, end to end: the real reference MCP server (server-everything, stdio) with
 * its default exposure (`codemode`), the scripted LLM writing a script, the script run in the
 * QuickJS sandbox, its nested calls on the wire with `parentToolCallId`, the script's output in
 * the model's next request. Then a hostile model: scripts that loop, allocate, recurse, wait for
 * nothing, look for host objects, call a hidden tool, or a tool the user is asked about. Each
 * must end as an error result with the host alive (the next prompt still answered).
 */
import { strict as assert } from "node:assert";
import { messageText, toolNames, toolResultMessages } from "../support/mock-llm";
import { mcpTools, run, start, stdioServer, stop, systemText, type Started } from "./mcp-support";

const codemode = (id: string, code: string) => ({ toolCalls: [{ id, name: "codemode", arguments: { code } }] });

/** The text of the codemode result the model read in request `index`. */
function scriptResult(s: Started, index: number): string {
  const request = s.llm.requests[index];
  assert.ok(request, `request ${index} (got ${s.llm.requests.length})`);
  return messageText(toolResultMessages(request).at(-1)!);
}

/** After an attack: the host still answers a prompt. */
async function stillAlive(s: Started): Promise<void> {
  s.llm.enqueue({ text: "still here" });
  const before = s.llm.requests.length;
  await run(s, "are you there?");
  assert.equal(s.llm.requests.length, before + 1, "the host answered the next prompt");
}

describe("codemode in the agent host (server-everything, QuickJS sandbox)", function () {
  this.timeout(120_000);
  let s: Started | undefined;
  afterEach(async () => {
    await stop(s);
    s = undefined;
  });

  it("a script calls two MCP tools and returns text; the output reaches the model's next request; nested calls carry parentToolCallId", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer({ description: "Reference server" }) } });
    s.llm.enqueue(
      codemode("cm1", [
        "const echoed = await tools.mcp__everything__echo({ message: 'from a script' });",
        "const sum = await tools.mcp__everything__get_sum({ a: 19, b: 23 });",
        "console.log('two calls');",
        "text(echoed.content[0].text);",
        "return sum.content[0].text;",
      ].join("\n")),
      { text: "done" },
    );
    await run(s, "echo and add");
    const [first] = s.llm.requests;
    assert.ok(toolNames(first!).includes("codemode"), toolNames(first!).join(","));
    assert.ok(!toolNames(first!).includes("tool_search"), "a codemode server needs no tool_search");
    assert.deepEqual(mcpTools(first!), [], "codemode tools are not declared");
    assert.match(systemText(first!), /Call the tools of `codemode` servers from codemode scripts\.\n- mcp__everything \(codemode\): Reference server/);
    const text = scriptResult(s, 1);
    assert.match(text, /^Script completed\nWall time [\d.]+ seconds\nOutput:\n/);
    assert.match(text, /==> text 1\/2 <==\nEcho: from a script\n==> text 2\/2 <==\nThe sum of 19 and 23 is 42\./);
    assert.match(text, /<console_output>\ntwo calls\n<\/console_output>/);
    const nested = s.peer.received.filter((f) => f.type === "tool_execution_start" && f.parentToolCallId === "cm1");
    assert.deepEqual(nested.map((f) => [f.toolCallId, f.toolName]), [["cm1/1", "mcp__everything__echo"], ["cm1/2", "mcp__everything__get_sum"]]);
    const ends = s.peer.received.filter((f) => f.type === "tool_execution_end" && f.parentToolCallId === "cm1");
    assert.deepEqual(ends.map((f) => [f.toolCallId, f.isError]), [["cm1/1", false], ["cm1/2", false]]);
    const end = s.peer.received.findIndex((f) => f.type === "tool_execution_end" && f.toolCallId === "cm1");
    assert.ok(end > s.peer.received.indexOf(ends[1]!), "the script ends after its nested calls");
  });

  it("discovery: ALL_TOOLS, searchTools, describeTool, describeNamespace; store and load across calls; the options line", async function () {
    s = await start("host", { mcpServers: { "docs-web": stdioServer({ description: "Reference server: echo, sums, images" }) } });
    s.llm.enqueue(
      codemode("d1", [
        "const found = await searchTools('sum of two numbers', { limit: 3 });",
        "const ns = await describeNamespace('docs-web');",
        "const described = await describeTool('mcp__docs_web__get_sum');",
        "store('seen', { count: ALL_TOOLS.length });",
        "return { first: found[0].name, ns: ns.name, description: ns.description, hasSum: ns.tools.includes('mcp__docs_web__get_sum'), described: typeof described === 'string' && described.includes('a: number'), all: ALL_TOOLS.some((t) => t.name === 'mcp__docs_web__echo') };",
      ].join("\n")),
      codemode("d2", "// @options: {\"max_output_tokens\": 5000}\nreturn load('seen').count > 5;"),
      codemode("d3", "const x = 1;\n// @options: {\"timeout_ms\": 10}\nreturn x;"),
      { text: "done" },
    );
    await run(s, "look around");
    const found = JSON.parse(scriptResult(s, 1).split("Output:\n")[1]!) as Record<string, unknown>;
    assert.deepEqual(found, { first: "mcp__docs_web__get_sum", ns: "mcp__docs_web", description: "Reference server: echo, sums, images", hasSum: true, described: true, all: true });
    assert.match(scriptResult(s, 2), /Script completed[\s\S]*Output:\n+true/);
    // As Pi keeps them: a `codemode-store` entry on the session for the script that stored.
    const stored = s.peer.received.filter((f) => f.type === "entry_appended" && (f.entry as { customType?: string }).customType === "codemode-store");
    assert.equal(stored.length, 1);
    const data = (stored[0]!.entry as { data: { set: { seen?: { count?: unknown } }; delete: unknown } }).data;
    assert.deepEqual(Object.keys(data.set), ["seen"]);
    assert.ok(typeof data.set.seen?.count === "number" && data.set.seen.count > 5, JSON.stringify(data));
    assert.deepEqual(data.delete, []);
    assert.match(scriptResult(s, 3), /^Script failed[\s\S]*The \/\/ @options: line must be the first line of the input; found one on line 2/);
  });

  it("a hostile script: loops, allocations, recursion, a promise that never settles and host objects all end as error results, the host alive", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer() } });
    s.llm.enqueue(
      codemode("loop", "// @options: {\"timeout_ms\": 1500}\nwhile (true) {}"),
      codemode("alloc", "const a = [];\nfor (;;) a.push('x'.repeat(1 << 20) + a.length);"),
      codemode("deep", "function f(n) { return f(n + 1) + 1; }\nreturn f(0);"),
      codemode("never", "await new Promise(() => {});\nreturn 'unreachable';"),
      codemode("host", "return [typeof require, typeof process, typeof globalThis.process, typeof module, typeof setTimeout, typeof fetch, typeof WebAssembly, (function () {}).constructor('return typeof process')()].join(',');"),
      // Stepping out of the function body the script is wrapped in leads only to the same sandbox.
      codemode("escape", "}); text([typeof process, typeof require, typeof globalThis.tools].join(',')); (async () => {"),
      codemode("import", "const seen = [typeof std, typeof os, typeof scriptArgs, typeof print];\ntry { await import('fs'); seen.push('fs loaded'); } catch (e) { seen.push('import refused'); }\ntry { await import('node:child_process'); seen.push('child_process loaded'); } catch (e) { seen.push('import refused'); }\nreturn seen.join(',');"),
      { text: "done" },
    );
    const started = Date.now();
    await run(s, "attack");
    assert.ok(Date.now() - started < 60_000, `took ${Date.now() - started} ms`);
    assert.match(scriptResult(s, 1), /^Script failed[\s\S]*Script timed out/);
    assert.match(scriptResult(s, 2), /^Script failed[\s\S]*out of memory/i);
    assert.match(scriptResult(s, 3), /^Script failed[\s\S]*(stack|recursion)/i);
    assert.match(scriptResult(s, 4), /^Script failed[\s\S]*never settle/i);
    assert.match(scriptResult(s, 5), /Script completed[\s\S]*undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined/);
    assert.match(scriptResult(s, 6), /undefined,undefined,object/);
    assert.match(scriptResult(s, 7), /Script completed[\s\S]*undefined,undefined,undefined,undefined,import refused,import refused/);
    await stillAlive(s);
  });

  it("an abort stops a script that never yields; the host stays alive", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer() } });
    s.llm.enqueue(codemode("spin", "let i = 0;\nwhile (true) { i++; }"), { text: "after abort" });
    const settled = s.peer.client.waitForSettled(60_000);
    await s.peer.client.request("prompt", { message: "spin" });
    await s.peer.waitForFrame((f) => f.type === "tool_execution_start" && f.toolCallId === "spin");
    await new Promise((r) => setTimeout(r, 500));
    const abortedAt = Date.now();
    await s.peer.client.request("abort", {}, { timeoutMs: 10_000 });
    await settled;
    assert.ok(Date.now() - abortedAt < 5_000, `abort took ${Date.now() - abortedAt} ms`);
    const end = s.peer.received.find((f) => f.type === "tool_execution_end" && f.toolCallId === "spin");
    assert.equal(end?.isError, true);
    assert.match(JSON.stringify(end?.result), /Script aborted/);
    await stillAlive(s);
  });

  it("a script cannot call a tool the exposure hides, nor one --exclude-tools removes", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer({ toolExposure: { echo: "hidden" } }) } }, { extraArgs: ["--exclude-tools", "mcp__everything__get_env"] });
    s.llm.enqueue(
      codemode("hid", [
        "const names = ALL_TOOLS.map((t) => t.name);",
        "text([typeof tools.mcp__everything__echo, typeof tools.mcp__everything__get_env, names.includes('mcp__everything__echo'), names.includes('mcp__everything__get_env'), typeof tools.mcp__everything__get_sum].join(','));",
        "return await tools['mcp__everything__echo']({ message: 'x' });",
      ].join("\n")),
      { text: "done" },
    );
    await run(s, "try the hidden tool");
    const text = scriptResult(s, 1);
    assert.match(text, /undefined,undefined,false,false,function/);
    assert.match(text, /^Script failed/);
    assert.ok(!/Echo: x/.test(text), text);
  });

  it("a nested call passes the permission question: a denied MCP call rejects inside the script, a read-only one runs unasked", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer() } }, { extraArgs: ["--confirm-tools", "bash,edit,write", "--permission-mode", "ask"] });
    const asked: string[] = [];
    s.peer.client.setDialogHandler(async (request) => {
      asked.push(String(request.title));
      return { value: "Deny" };
    });
    s.llm.enqueue(
      codemode("perm", [
        "const echoed = await tools.mcp__everything__echo({ message: 'unasked' });",
        "text(echoed.content[0].text);",
        "try { await tools.mcp__everything__toggle_simulated_logging({}); text('ran'); } catch (e) { text('refused: ' + e.message); }",
      ].join("\n")),
      { text: "done" },
    );
    await run(s, "toggle logging");
    const text = scriptResult(s, 1);
    assert.match(text, /Echo: unasked/);
    assert.match(text, /refused: The user denied this mcp__everything__toggle_simulated_logging call\./);
    assert.equal(asked.length, 1, asked.join(" | "));
    assert.match(asked[0]!, /mcp__everything__toggle_simulated_logging/);
  });

  it("output limits: a long output keeps its start and end, and the whole text goes to a file named in the result", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer() } });
    s.llm.enqueue(codemode("big", "// @options: {\"max_output_tokens\": 100}\ntext('START' + 'x'.repeat(5000) + 'END');"), { text: "done" });
    await run(s, "big");
    const text = scriptResult(s, 1);
    assert.match(text, /Warning: truncated output/);
    assert.match(text, /START/);
    assert.match(text, /END/);
    assert.ok(text.length < 2000, `${text.length} chars`);
    assert.match(text, /\[Full output: [^\]]+\]/);
  });

  it("--exclude-tools codemode: the codemode server's tools are reached through tool_search instead", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer() } }, { extraArgs: ["--exclude-tools", "codemode"] });
    await run(s, "hi");
    const names = toolNames(s.llm.requests[0]!);
    assert.ok(!names.includes("codemode") && names.includes("tool_search"), names.join(","));
    assert.match(systemText(s.llm.requests[0]!), /- mcp__everything \(tool_search\)/);
  });

  it("more limits: exit() cannot be caught, codemode cannot call itself, console and store floods fail, at most PI_CODEMODE_MAX_WORKERS scripts run at once", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer() } }, { env: { PI_CODEMODE_MAX_WORKERS: "1" } });
    s.llm.enqueue(
      codemode("exit", "try { text('before'); exit(); } catch (e) { text('caught'); await tools.mcp__everything__echo({ message: 'after exit' }); } finally { text('finally'); }\ntext('after');"),
      codemode("self", "return [typeof tools.codemode, ALL_TOOLS.some((t) => t.name === 'codemode'), typeof tools.tool_search].join(',');"),
      codemode("flood", "for (let i = 0; i < 100001; i++) { try { console.log(i); } catch (e) {} }\nreturn 'survived';"),
      codemode("store", "store('k', 'x'.repeat(300000));"),
      // Two scripts in one turn with one worker: the second waits, and its deadline passes while it waits.
      { toolCalls: [{ id: "busy", name: "codemode", arguments: { code: "// @options: {\"timeout_ms\": 2000}\nwhile (true) {}" } }, { id: "queued", name: "codemode", arguments: { code: "// @options: {\"timeout_ms\": 500}\nreturn 'ran';" } }] },
      { text: "done" },
    );
    await run(s, "limits");
    assert.match(scriptResult(s, 1), /^Script completed[\s\S]*Output:\n+before$/);
    assert.ok(!s.peer.received.some((f) => f.type === "tool_execution_start" && f.parentToolCallId === "exit"), "no call after exit()");
    assert.match(scriptResult(s, 2), /Script completed[\s\S]*undefined,false,undefined/);
    assert.match(scriptResult(s, 3), /^Script failed[\s\S]*output passed/);
    assert.ok(!scriptResult(s, 3).includes("survived"));
    assert.match(scriptResult(s, 4), /^Script failed[\s\S]*at most 262144 characters/);
    const last = toolResultMessages(s.llm.requests[5]!);
    assert.match(messageText(last.find((m) => m.tool_call_id === "busy")!), /Script timed out/);
    assert.match(messageText(last.find((m) => m.tool_call_id === "queued")!), /while waiting for a free codemode worker/);
    await stillAlive(s);
  });

  it("image(): an MCP image block reaches the model as an image, saved to a file named before it", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer() } });
    s.llm.enqueue(codemode("img", "const r = await tools.mcp__everything__get_tiny_image({});\nimage(r.content.find((c) => c.type === 'image'));"), { text: "done" });
    await run(s, "show the image");
    const end = s.peer.received.find((f) => f.type === "tool_execution_end" && f.toolCallId === "img") as { result: { content: { type: string; text?: string; mimeType?: string }[] } } | undefined;
    const content = end!.result.content;
    assert.ok(content.some((c) => c.type === "image" && c.mimeType === "image/png"), JSON.stringify(content).slice(0, 300));
    assert.ok(content.some((c) => c.type === "text" && /\[Image saved to \S+\.png \(image\/png, \d+ bytes\)\]/.test(c.text ?? "")));
  });

  it("a script of 1000 nested calls: the script's own updates stay few and small (throttled, the record capped)", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer() } });
    s.llm.enqueue(codemode("many", "for (let i = 0; i < 1000; i++) await tools.mcp__everything__echo({ message: 'm' + i });\nreturn 'ok';"), { text: "done" });
    await run(s, "many calls");
    assert.match(scriptResult(s, 1), /^Script completed[\s\S]*ok$/);
    const updates = s.peer.received.filter((f) => f.type === "tool_execution_update" && f.toolCallId === "many");
    const bytes = updates.reduce((sum, f) => sum + JSON.stringify(f).length, 0);
    assert.ok(updates.length < 200, `${updates.length} updates of the script`);
    assert.ok(bytes < 3_000_000, `${bytes} bytes of the script's updates`);
    assert.equal(s.peer.received.filter((f) => f.type === "tool_execution_end" && f.parentToolCallId === "many").length, 1000, "every nested call is on the wire");
  });

  it("a call still running when the script ends is cancelled, and its end goes out before the script's", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer() } });
    s.llm.enqueue(codemode("left", "tools.mcp__everything__trigger_long_running_operation({ duration: 20, steps: 20 });\nreturn 'left running';"), { text: "done" });
    const started = Date.now();
    await run(s, "leave a call running");
    assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms: the 20 s operation was not waited for`);
    assert.match(scriptResult(s, 1), /^Script completed[\s\S]*left running/);
    const nestedEnd = s.peer.received.findIndex((f) => f.type === "tool_execution_end" && f.parentToolCallId === "left");
    const scriptEnd = s.peer.received.findIndex((f) => f.type === "tool_execution_end" && f.toolCallId === "left");
    assert.ok(nestedEnd >= 0 && nestedEnd < scriptEnd, `nested end at ${nestedEnd}, script end at ${scriptEnd}`);
    assert.equal(s.peer.received[nestedEnd]!.isError, true);
  });

  it("plan mode: the script runs (it changes nothing itself), its read-only call runs, its other call is refused", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer() } }, { extraArgs: ["--confirm-tools", "bash,edit,write", "--permission-mode", "plan"] });
    s.llm.enqueue(
      codemode("plan", [
        "text((await tools.mcp__everything__echo({ message: 'planning' })).content[0].text);",
        "try { await tools.mcp__everything__toggle_simulated_logging({}); text('changed'); } catch (e) { text('refused: ' + e.message.slice(0, 10)); }",
      ].join("\n")),
      { text: "done" },
    );
    await run(s, "plan");
    const text = scriptResult(s, 1);
    assert.match(text, /^Script completed[\s\S]*Echo: planning\n[\s\S]*refused: Plan mode/);
    assert.ok(!text.includes("changed"));
  });

  it("a script waits only for the servers it names (or for all when it searches): a server that hangs does not hold it up", async function () {
    // A "server" that never answers: connecting to it takes its whole timeout (20 s).
    s = await start("host", { mcpServers: { everything: stdioServer(), stuck: { command: "/bin/sh", args: ["-c", "sleep 60"], timeout: 20 } } });
    s.llm.enqueue(codemode("named", "return (await tools.mcp__everything__echo({ message: 'not held up' })).content[0].text;"), { text: "done" });
    const started = Date.now();
    await run(s, "echo");
    assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
    assert.match(scriptResult(s, 1), /Script completed[\s\S]*Echo: not held up/);
  });
});

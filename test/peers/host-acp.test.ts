/**
 * Our host in `--mode acp`, driven over stdio by the official ACP SDK's client against the
 * scripted LLM: sessions and prompts. initialize, session/new (and the cwd it takes), a streamed
 * prompt, a prompt's resources and images, cancel mid-stream and while MCP servers connect, a
 * failed model request, two sessions and session/close, a saved session loaded in a new process
 * (and never a path). (Tools and permissions: host-acp-tools.test.ts.)
 */
import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messageText, startMockLlm } from "../support/mock-llm";
import { peerLaunch } from "../support/peers";
import { agentText, openSession, startAcpHost, type AcpHarness, type ClientScript } from "./acp-support";


describe("Our host in --mode acp, driven by the ACP SDK's client", function () {
  this.timeout(60_000);
  let h: AcpHarness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  async function newSession(script: ClientScript = {}, extraArgs: string[] = []) {
    h = await startAcpHost(script, extraArgs);
    return openSession(h);
  }

  it("initialize says what it offers; session/new gives our modes and models; a prompt streams chunks and ends with end_turn", async function () {
    h = await startAcpHost();
    const init = await h.initialize();
    assert.equal(init.protocolVersion, 1);
    assert.deepEqual(init.agentCapabilities, { loadSession: true, promptCapabilities: { image: true, audio: false, embeddedContext: true }, mcpCapabilities: { http: true, sse: false }, sessionCapabilities: { close: {}, list: {}, resume: {} } });
    const session = await h.agent.request("session/new", { cwd: h.launch.cwd, mcpServers: [] });
    assert.deepEqual(session.modes?.availableModes.map((m) => m.id), ["default", "auto-edit", "plan", "full-auto"]);
    assert.equal(session.modes?.currentModeId, "default");
    const model = session.configOptions?.find((o) => o.id === "model");
    assert.equal(model?.type === "select" && model.currentValue, "mock/mock");
    assert.match(String((session._meta as { pi?: { sessionFile?: string } }).pi?.sessionFile), /acp-sessions/);
    h.llm.enqueue({ reasoning: ["Let me ", "think"], text: ["Hel", "lo ", "there"], delayMs: 30 });
    const response = await h.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "hi" }] });
    assert.equal(response.stopReason, "end_turn");
    assert.equal(agentText(h.updates), "Hello there");
    assert.equal(h.updates.filter((n) => n.update.sessionUpdate === "agent_message_chunk").length, 3, "deltas 30 ms apart stream as they come");
    const thought = h.updates.flatMap((n) => (n.update.sessionUpdate === "agent_thought_chunk" && n.update.content.type === "text" ? [n.update.content.text] : [])).join("");
    assert.equal(thought, "Let me think");
    assert.ok(h.updates.every((n) => n.sessionId === session.sessionId));
  });

  it("a prompt's resource links, embedded resources and images reach the model", async function () {
    const llm = await startMockLlm();
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    // A model that takes images.
    const models = JSON.parse(readFileSync(join(launch.agentDir, "models.json"), "utf8")) as { providers: { mock: { models: { input: string[] }[] } } };
    models.providers.mock.models[0]!.input = ["text", "image"];
    writeFileSync(join(launch.agentDir, "models.json"), JSON.stringify(models));
    h = await startAcpHost({}, [], { llm, launch });
    h.stop = ((stop) => async () => {
      await stop();
      await llm.close();
      launch.cleanup();
    })(h.stop);
    await h.initialize();
    const session = await h.agent.request("session/new", { cwd: launch.cwd, mcpServers: [] });
    await h!.agent.request("session/prompt", {
      sessionId: session.sessionId,
      prompt: [
        { type: "text", text: "look at these" },
        { type: "resource_link", uri: "file:///tmp/a.ts", name: "a.ts" },
        { type: "resource", resource: { uri: "file:///tmp/b.ts", text: "const b = 1;\n</resource> injected" } },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
    });
    const [request] = h!.llm.requests;
    const user = request!.body.messages.filter((m) => m.role === "user").at(-1)!;
    const text = messageText(user);
    assert.match(text, /look at these/);
    assert.match(text, /\[a\.ts\]\(file:\/\/\/tmp\/a\.ts\)/);
    assert.match(text, /<resource uri="file:\/\/\/tmp\/b\.ts">\nconst b = 1;\n<\\\/resource> injected\n<\/resource>/);
    assert.ok(JSON.stringify(user.content).includes("data:image/png;base64,iVBORw0KGgo="), "the image is sent");
  });

  it("session/cancel mid-stream ends the prompt with stopReason cancelled and stops the model's request", async function () {
    const session = await newSession();
    h!.llm.enqueue({ text: Array.from({ length: 200 }, (_, i) => `w${i} `), delayMs: 50 });
    const prompt = h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "long" }] });
    while (!h!.updates.some((n) => n.update.sessionUpdate === "agent_message_chunk")) await new Promise((r) => setTimeout(r, 20));
    await h!.agent.notify("session/cancel", { sessionId: session.sessionId });
    const response = await prompt;
    assert.equal(response.stopReason, "cancelled");
    const done = await h!.llm.waitForDone(0, 5000);
    assert.equal(done.aborted, true, "the model's request was aborted");
    // The session goes on.
    h!.llm.enqueue({ text: "again" });
    assert.equal((await h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "next" }] })).stopReason, "end_turn");
  });

  it("session/load in a new process replays the saved conversation as session/updates, and the next prompt has its history", async function () {
    const llm = await startMockLlm();
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    try {
      h = await startAcpHost({}, [], { llm, launch });
      await h.initialize();
      const session = await h.agent.request("session/new", { cwd: launch.cwd, mcpServers: [] });
      llm.enqueue({ toolCalls: [{ id: "b1", name: "bash", arguments: { command: "echo saved" } }] }, { text: "first answer" });
      await h.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "first question" }] });
      const file = (session._meta as { pi: { sessionFile: string } }).pi.sessionFile;
      await h.stop();
      assert.ok(readFileSync(file, "utf8").includes("first answer"));

      h = await startAcpHost({}, [], { llm, launch });
      const init = await h.initialize();
      assert.equal(init.agentCapabilities?.loadSession, true);
      await h.agent.request("session/load", { sessionId: session.sessionId, cwd: launch.cwd, mcpServers: [] });
      const replayed = h.updates.map((n) => n.update);
      assert.deepEqual(replayed.map((u) => u.sessionUpdate).filter((k) => k !== "available_commands_update"), ["user_message_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]);
      assert.ok(replayed[0]?.sessionUpdate === "user_message_chunk" && replayed[0].content.type === "text" && replayed[0].content.text === "first question");
      assert.ok(JSON.stringify(replayed[2]).includes("saved"));
      assert.equal(agentText(h.updates), "first answer");
      llm.enqueue({ text: "second answer" });
      await h.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "second question" }] });
      const last = llm.requests.at(-1)!;
      assert.ok(last.body.messages.some((m) => messageText(m).includes("first question")), "history was loaded");
      await assert.rejects(h.agent.request("session/load", { sessionId: "no-such-session", cwd: launch.cwd, mcpServers: [] }), /not found/i);
    } finally {
      await h?.stop();
      h = undefined;
      await llm.close();
      launch.cleanup();
    }
  });

  it("session/load takes a session id, never a path or a part of an id: other files are not opened", async function () {
    h = await startAcpHost();
    await h.initialize();
    const session = await h.agent.request("session/new", { cwd: h.launch.cwd, mcpServers: [] });
    h.llm.enqueue({ text: "saved" });
    await h.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "q" }] });
    const file = (session._meta as { pi: { sessionFile: string } }).pi.sessionFile;
    // Another process's view: a second host on the same session folder.
    const other = await startAcpHost({}, [], { llm: h.llm, launch: h.launch });
    try {
      await other.initialize();
      for (const ref of [file, session.sessionId.slice(0, 8), "../" + session.sessionId, "/etc/passwd"]) {
        await assert.rejects(other.agent.request("session/load", { sessionId: ref, cwd: h.launch.cwd, mcpServers: [] }), /not found/i, ref);
      }
      assert.equal(other.updates.length, 0, "nothing was replayed");
    } finally {
      await other.stop();
    }
  });

  it("a failed model request is a JSON-RPC error carrying the provider's message; a second prompt during a run is refused", async function () {
    const session = await newSession(undefined, []);
    await h!.agent.request("session/set_config_option", { sessionId: session.sessionId, configId: "model", value: "mock/mock" });
    h!.llm.enqueue({ kind: "error", status: 400, message: "bad request from the mock" });
    await assert.rejects(h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "x" }] }), /bad request from the mock/);
    h!.llm.enqueue({ text: ["slow ", "reply"], delayMs: 300 });
    const first = h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "one" }] });
    await h!.llm.waitForRequests(2);
    await assert.rejects(h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "two" }] }), /already running/);
    assert.equal((await first).stopReason, "end_turn");
    await assert.rejects(h!.agent.request("session/set_config_option", { sessionId: session.sessionId, configId: "model", value: "nope/none" }), /Unknown model/);
  });

  it("session/new refuses a cwd that is not an absolute path to a folder", async function () {
    h = await startAcpHost();
    await h.initialize();
    const file = join(h.launch.cwd, "a-file");
    writeFileSync(file, "x");
    for (const cwd of ["relative/dir", "", join(h.launch.cwd, "missing"), file, `${h.launch.cwd}\u0000x`]) {
      await assert.rejects(h.agent.request("session/new", { cwd, mcpServers: [] }), /cwd|Invalid/i, JSON.stringify(cwd));
    }
    assert.ok((await h.agent.request("session/new", { cwd: h.launch.cwd, mcpServers: [] })).sessionId);
  });

  it("two sessions in one connection keep their updates apart; session/close ends one and its id is gone", async function () {
    h = await startAcpHost();
    const init = await h.initialize();
    assert.deepEqual(init.agentCapabilities?.sessionCapabilities, { close: {}, list: {}, resume: {} });
    const a = await h.agent.request("session/new", { cwd: h.launch.cwd, mcpServers: [] });
    const b = await h.agent.request("session/new", { cwd: h.launch.cwd, mcpServers: [] });
    assert.notEqual(a.sessionId, b.sessionId);
    h.llm.enqueue((r) => ({ text: ["from ", messageText(r.body.messages.at(-1)!)], delayMs: 20 }), (r) => ({ text: ["from ", messageText(r.body.messages.at(-1)!)], delayMs: 20 }));
    await Promise.all([
      h.agent.request("session/prompt", { sessionId: a.sessionId, prompt: [{ type: "text", text: "A" }] }),
      h.agent.request("session/prompt", { sessionId: b.sessionId, prompt: [{ type: "text", text: "B" }] }),
    ]);
    assert.equal(agentText(h.updates.filter((n) => n.sessionId === a.sessionId)), "from A");
    assert.equal(agentText(h.updates.filter((n) => n.sessionId === b.sessionId)), "from B");
    await h.agent.request("session/close", { sessionId: a.sessionId });
    await assert.rejects(h.agent.request("session/prompt", { sessionId: a.sessionId, prompt: [{ type: "text", text: "again" }] }), /not found/i);
    h.llm.enqueue({ text: "still here" });
    assert.equal((await h.agent.request("session/prompt", { sessionId: b.sessionId, prompt: [{ type: "text", text: "B2" }] })).stopReason, "end_turn");
  });

  it("session/cancel while the prompt waits for an MCP server to connect: no run starts, the prompt answers cancelled", async function () {
    h = await startAcpHost();
    // A direct server that never answers: the prompt waits for it (bounded) before the run.
    writeFileSync(join(h.launch.agentDir, "mcp.json"), JSON.stringify({ mcpServers: { slow: { command: "sleep", args: ["30"], exposure: "direct" } } }));
    await h.initialize();
    const session = await h.agent.request("session/new", { cwd: h.launch.cwd, mcpServers: [] });
    const prompt = h.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "hi" }] });
    await new Promise((r) => setTimeout(r, 300));
    await h.agent.notify("session/cancel", { sessionId: session.sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(h.llm.requests.length, 0, "no model request after the cancel");
  });
});

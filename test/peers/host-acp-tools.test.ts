/**
 * Our host in `--mode acp`, driven over stdio by the official ACP SDK's client against the
 * scripted LLM: what tools do through ACP. Permission questions answered each way (and cancelled),
 * writes and edits through the client's fs, bash in the client's terminal (not under --sandbox),
 * plan mode refusing a write, the todo list as the plan, slash commands, a client's MCP server, a
 * Pi extension's dialogs. (Sessions, prompts, cancel, load: host-acp.test.ts.)
 */
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messageText, toolResultMessages } from "../support/mock-llm";
import { kinds, openSession, startAcpHost, type AcpHarness, type ClientScript } from "./acp-support";
import { stdioServer, systemText } from "./mcp-support";

type Update = AcpHarness["updates"][number]["update"];
const toolUpdates = (h: AcpHarness, id: string): Update[] => h.updates.map((n) => n.update).filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === id);
const lastStatus = (h: AcpHarness, id: string): string | undefined => toolUpdates(h, id).reverse().find((u) => "status" in u && u.status)?.["status" as keyof Update] as string | undefined;

describe("Our host in --mode acp: tools, permissions, the client's fs and terminal", function () {
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

  it("a bash call asks session/request_permission on that call with the whole command; allowed it runs, denied it does not, 'deny always' is not asked again", async function () {
    const answers: string[] = ["allow_once", "reject_once", "reject_always"];
    const session = await newSession({
      permission: (request) => {
        const kind = answers.shift();
        const option = request.options.find((o) => o.kind === kind)!;
        return { outcome: { outcome: "selected", optionId: option.optionId } };
      },
    });
    const command = "echo one; echo two && printf '%s' \"$((40 + 2))\"";
    h!.llm.enqueue(
      { toolCalls: [{ id: "b1", name: "bash", arguments: { command } }] }, { text: "ran" },
      { toolCalls: [{ id: "b2", name: "bash", arguments: { command: "echo denied-once" } }] }, { text: "denied" },
      { toolCalls: [{ id: "b3", name: "bash", arguments: { command: "echo denied-always" } }] }, { text: "denied" },
      { toolCalls: [{ id: "b4", name: "bash", arguments: { command: "echo not-asked" } }] }, { text: "denied again" },
    );
    for (const text of ["one", "two", "three", "four"]) assert.equal((await h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text }] })).stopReason, "end_turn");
    assert.equal(h!.permissions.length, 3, "b4 is denied without a question");
    const [first] = h!.permissions;
    assert.equal(first!.toolCall.toolCallId, "b1");
    assert.deepEqual(first!.toolCall.rawInput, { command });
    assert.ok(JSON.stringify(first!.toolCall.content).includes(JSON.stringify(command).slice(1, -1)), "the whole command is in the question");
    // A compound command: Allow once, this exact command for the session, Deny, and ACP's reject_always.
    assert.deepEqual(first!.options.map((o) => o.kind), ["allow_once", "allow_always", "reject_once", "reject_always"]);
    const call = toolUpdates(h!, "b1")[0]!;
    assert.ok(call.sessionUpdate === "tool_call" && call.kind === "execute" && call.title === command);
    assert.equal(lastStatus(h!, "b1"), "completed");
    assert.ok(JSON.stringify(toolUpdates(h!, "b1").at(-1)).includes("one\\ntwo\\n42"), "the command's output");
    for (const id of ["b2", "b3", "b4"]) assert.equal(lastStatus(h!, id), "failed", id);
    const results = h!.llm.requests.flatMap((r) => toolResultMessages(r)).map(messageText);
    assert.ok(!results.some((t) => /denied-once\n|not-asked\n/.test(t)), "denied commands did not run");
  });

  it("write and edit go through the client's fs/write_text_file (reads through fs/read_text_file), with diffs in the tool call; nothing touches the disk", async function () {
    const session = await newSession({ fs: true });
    const cwd = h!.launch.cwd;
    const target = join(cwd, "src", "new.txt");
    // The client's buffer differs from the disk (unsaved): the edit works on the buffer.
    writeFileSync(join(cwd, "old.txt"), "alpha\nbeta\n");
    h!.files.set(join(cwd, "old.txt"), "alpha\nbeta\nunsaved\n");
    h!.llm.enqueue(
      { toolCalls: [{ id: "w1", name: "write", arguments: { path: "src/new.txt", content: "hello\n" } }] },
      { toolCalls: [{ id: "e1", name: "edit", arguments: { path: "old.txt", edits: [{ oldText: "beta", newText: "gamma" }] } }] },
      { text: "done" },
    );
    const response = await h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "write" }] });
    assert.equal(response.stopReason, "end_turn");
    assert.deepEqual(h!.writes.map((w) => [w.path, w.content]), [[target, "hello\n"], [join(cwd, "old.txt"), "alpha\ngamma\nunsaved\n"]]);
    assert.equal(readFileSync(join(cwd, "old.txt"), "utf8"), "alpha\nbeta\n", "the disk is the client's business");
    assert.ok(h!.writes.every((w) => w.sessionId === session.sessionId));
    assert.ok(h!.reads.some((r) => r.path === join(cwd, "old.txt")), "the edit read the client's text");
    assert.equal(existsSync(target), false, "the client wrote, not the host");
    assert.deepEqual(h!.permissions.map((p) => p.toolCall.toolCallId), ["w1", "e1"]);
    const writeCall = toolUpdates(h!, "w1")[0]!;
    assert.ok(writeCall.sessionUpdate === "tool_call" && writeCall.kind === "edit");
    assert.deepEqual(writeCall.content, [{ type: "diff", path: target, oldText: null, newText: "hello\n" }]);
    assert.deepEqual(writeCall.locations, [{ path: target }]);
    const editDone = toolUpdates(h!, "e1").at(-1)!;
    assert.ok(editDone.sessionUpdate === "tool_call_update" && editDone.status === "completed");
    assert.deepEqual(editDone.content?.[0], { type: "diff", path: join(cwd, "old.txt"), oldText: "beta", newText: "gamma" });
  });

  it("session/set_mode plan: a write is refused without a question and nothing is written; current_mode_update says so", async function () {
    const session = await newSession({ fs: true });
    await h!.agent.request("session/set_mode", { sessionId: session.sessionId, modeId: "plan" });
    h!.llm.enqueue({ toolCalls: [{ id: "w1", name: "write", arguments: { path: "x.txt", content: "no" } }] }, { text: "ok" });
    await h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "write" }] });
    assert.equal(h!.writes.length, 0);
    assert.equal(h!.permissions.length, 0);
    assert.equal(lastStatus(h!, "w1"), "failed");
    assert.ok(h!.updates.some((n) => n.update.sessionUpdate === "current_mode_update" && n.update.currentModeId === "plan"));
    await assert.rejects(h!.agent.request("session/set_mode", { sessionId: session.sessionId, modeId: "yolo" }), /Unknown mode/);
    await h!.agent.request("session/set_mode", { sessionId: session.sessionId, modeId: "full-auto" });
    h!.llm.enqueue({ toolCalls: [{ id: "w2", name: "write", arguments: { path: "x.txt", content: "yes" } }] }, { text: "ok" });
    await h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "write" }] });
    assert.equal(h!.permissions.length, 0, "full-auto asks nothing");
    assert.equal(h!.writes.length, 1);
  });

  it("the todo tool's list is the ACP plan; prompt templates are available commands", async function () {
    h = await startAcpHost();
    mkdirSync(join(h.launch.agentDir, "prompts"), { recursive: true });
    writeFileSync(join(h.launch.agentDir, "prompts", "review.md"), "---\ndescription: Review the changes\n---\nReview $ARGUMENTS");
    await h.initialize();
    const session = await h.agent.request("session/new", { cwd: h.launch.cwd, mcpServers: [] });
    const phases = [{ name: "Build", tasks: [{ content: "write the face", status: "completed" }, { content: "test it", status: "in_progress" }] }];
    h.llm.enqueue({ toolCalls: [{ id: "t1", name: "todo", arguments: { op: "replace", phases } }] }, { text: "planned" });
    await h.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "/review the face" }] });
    assert.match(messageText(h.llm.requests[0]!.body.messages.filter((m) => m.role === "user").at(-1)!), /Review the face/, "the template expanded");
    const commands = h.updates.find((n) => n.update.sessionUpdate === "available_commands_update")?.update;
    assert.ok(commands?.sessionUpdate === "available_commands_update");
    assert.deepEqual(commands.availableCommands.map((c) => [c.name, c.description]), [["review", "Review the changes"]]);
    const plan = h.updates.map((n) => n.update).filter((u) => u.sessionUpdate === "plan").at(-1);
    assert.ok(plan?.sessionUpdate === "plan", `a plan update: ${kinds(h.updates).join(",")} ${h.stderr()}`);
    assert.deepEqual(plan.entries.map((e) => [e.content, e.status]), [["write the face", "completed"], ["test it", "in_progress"]]);
  });

  it("an MCP server the client passes connects through our MCP manager (server-everything over stdio)", async function () {
    h = await startAcpHost();
    await h.initialize();
    const server = stdioServer();
    const session = await h.agent.request("session/new", { cwd: h.launch.cwd, mcpServers: [{ name: "everything", command: server.command, args: server.args, env: [] }] });
    // Its exposure is Pi's default, codemode: a script finds the tool and calls it.
    h.llm.enqueue({ toolCalls: [{ id: "s1", name: "codemode", arguments: { code: "const [found] = await searchTools('sum two numbers');\nconst r = await tools[found.name]({ a: 2, b: 3 });\nreturn found.name + ': ' + r.content[0].text;" } }] }, { text: "found" });
    await h.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "add" }] });
    assert.match(systemText(h.llm.requests[0]!), /mcp__everything \(codemode\)/);
    assert.match(messageText(toolResultMessages(h.llm.requests[1]!)[0]!), /mcp__everything__get_sum: The sum of 2 and 3 is 5\./);
  });

  it("session/cancel while a permission question is open: the question is cancelled, the command does not run, the prompt answers cancelled", async function () {
    let asked!: () => void;
    const open = new Promise<void>((resolve) => (asked = resolve));
    const session = await newSession({
      // The client never answers: only the cancel ends the question.
      permission: () => {
        asked();
        return new Promise(() => undefined);
      },
    });
    h!.llm.enqueue({ toolCalls: [{ id: "b1", name: "bash", arguments: { command: "touch ran.txt" } }] }, { text: "after" });
    const prompt = h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "run" }] });
    await open;
    await h!.agent.notify("session/cancel", { sessionId: session.sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    assert.equal(existsSync(join(h!.launch.cwd, "ran.txt")), false);
    assert.equal(h!.llm.requests.length, 1, "no further model request");
  });

  it("bash runs in the client's terminal when it offers one: the tool call shows the terminal, the model reads its output; cancel kills it", async function () {
    const session = await newSession({ terminal: true });
    h!.llm.enqueue({ toolCalls: [{ id: "b1", name: "bash", arguments: { command: "echo in-terminal; pwd" } }] }, { text: "ok" });
    await h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "run" }] });
    const [created] = [...h!.terminals.values()];
    assert.deepEqual([created!.request.command, created!.request.args, created!.request.cwd], ["bash", ["-c", "echo in-terminal; pwd"], h!.launch.cwd]);
    assert.equal(created!.released, true, "released after the command");
    assert.equal(messageText(toolResultMessages(h!.llm.requests[1]!)[0]!).trim(), `in-terminal\n${h!.launch.cwd}`);
    const done = toolUpdates(h!, "b1").at(-1)!;
    assert.ok(done.sessionUpdate === "tool_call_update" && done.status === "completed");
    assert.deepEqual(done.content?.[0], { type: "terminal", terminalId: "term-1" });

    h!.llm.enqueue({ toolCalls: [{ id: "b2", name: "bash", arguments: { command: "echo started; sleep 30" } }] }, { text: "never" });
    const prompt = h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "long" }] });
    while (!(h!.terminals.get("term-2")?.output ?? "").includes("started")) await new Promise((r) => setTimeout(r, 50));
    await h!.agent.notify("session/cancel", { sessionId: session.sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    const second = h!.terminals.get("term-2")!;
    assert.ok(second.killed || second.released, "the command was killed");
    assert.ok(second.exit, "and it ended");
  });

  it("under --sandbox, bash stays in our sandbox even when the client offers a terminal", async function () {
    const session = await newSession({ terminal: true }, ["--sandbox", "workspace-write"]);
    h!.llm.enqueue({ toolCalls: [{ id: "b1", name: "bash", arguments: { command: "echo sandboxed" } }] }, { text: "ok" });
    await h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "run" }] });
    assert.equal(h!.terminals.size, 0, "no client terminal");
    assert.match(messageText(toolResultMessages(h!.llm.requests[1]!)[0]!), /sandboxed/);
  });

  it("a Pi extension's select and confirm are asked with session/request_permission, its input and editor answered cancelled; its commands are available", async function () {
    const session = await newSession(
      { permission: (request) => ({ outcome: { outcome: "selected", optionId: request.options.find((o) => o.name === "green" || o.name === "Yes")!.optionId } }) },
      ["-e", join(__dirname, "..", "fixtures", "extensions", "ui-dialogs.ts")],
    );
    const response = await h!.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "/ui-demo" }] });
    assert.equal(response.stopReason, "end_turn");
    assert.deepEqual(h!.permissions.map((p) => p.options.map((o) => o.name)), [["red", "green", "blue"], ["Yes", "No"]]);
    assert.ok(h!.permissions.every((p) => p.toolCall.toolCallId.startsWith("pi-question-")));
    assert.ok(JSON.stringify(h!.permissions[1]!.toolCall.content).includes("Really proceed?"));
    await new Promise((r) => setTimeout(r, 100));
    assert.match(h!.stderr(), /color="green" proceed=true name=undefined text=undefined/);
    assert.equal(h!.llm.requests.length, 0, "the command ran in the host, no model call");
    const commands = h!.updates.find((n) => n.update.sessionUpdate === "available_commands_update")?.update;
    assert.ok(commands?.sessionUpdate === "available_commands_update" && commands.availableCommands.some((c) => c.name === "ui-demo" && (c._meta as { pi: { source: string } }).pi.source === "extension"));
  });
});

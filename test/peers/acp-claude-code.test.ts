/**
 * Our ACP client (extension/acp/) driving the real claude-code-acp (deprecated upstream, but the
 * agent that uses the client's terminals and fs) offline against the scripted Anthropic server,
 * with no VS Code: the chat's RpcClient on the AcpTransport. Its `mcp__acp__Bash` runs the command
 * in our terminal (extension/acp/acp-terminals.ts): the output reaches the tool card, the editor's
 * terminal view and the model; Abort kills it. Its `mcp__acp__Write` is served by the client's fs.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { AcpFileServices } from "../../extension/acp/acp-bridge";
import type { RpcClient } from "../../shared/rpc";
import type { AgentEvent, DialogRequest } from "../../shared/protocol";
import { startAcpPeer, type AcpPeer } from "../support/acp-agents";
import { lastUserText, startMockAnthropic, toolResults, toolResultText, type AnthropicRequest, type AnthropicTurn, type MockAnthropic } from "../support/mock-anthropic";

const cardText = (event: AgentEvent): string =>
  (event.type === "tool_execution_update" ? event.partialResult : event.type === "tool_execution_end" ? event.result : undefined)?.content.map((c) => (c.type === "text" ? c.text : "")).join("\n") ?? "";

describe("ACP client with the real claude-code-acp (offline)", function () {
  this.timeout(120_000);
  let anthropic: MockAnthropic;
  let peer: AcpPeer;
  let cwd: string;
  let client: RpcClient;
  const transport = () => peer.transport;
  let events: AgentEvent[];
  let writes: { path: string; content: string }[];
  let shown: { created: { id: string; command: string }[]; output: Map<string, string>; exited: Map<string, number | null> };
  let decide: (request: AnthropicRequest) => AnthropicTurn;
  let asked: DialogRequest[];

  beforeEach(async () => {
    decide = () => ({ text: ["OK"] });
    anthropic = await startMockAnthropic((request) => decide(request));
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), "acp-claude-cwd-"));
    writes = [];
    asked = [];
    shown = { created: [], output: new Map(), exited: new Map() };
    const files: AcpFileServices = {
      readTextFile: async (file) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : ""),
      writeTextFile: async (file, content) => {
        writes.push({ path: file, content });
        fs.writeFileSync(file, content);
      },
    };
    peer = await startAcpPeer("claude-code", anthropic.baseUrl, cwd, files, {
      terminalView: {
        created: (id, command) => shown.created.push({ id, command }),
        output: (id, chunk) => shown.output.set(id, (shown.output.get(id) ?? "") + chunk),
        exited: (id, code) => shown.exited.set(id, code),
      },
    });
    ({ client, events } = peer);
    client.setDialogHandler(async (request) => {
      asked.push(request);
      return request.method === "select" ? { value: request.options.find((o) => /^allow$/i.test(o)) ?? request.options[0]! } : { cancelled: true };
    });
  });

  afterEach(async () => {
    await peer.stop();
    await anthropic.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it("streams the answer", async () => {
    decide = () => ({ text: ["Clau", "de ", "says ", "hi"] });
    await client.request("prompt", { message: "hello" });
    await client.waitForSettled(60_000);
    const deltas = events.flatMap((e) => (e.type === "message_update" && e.assistantMessageEvent.type === "text_delta" ? [e.assistantMessageEvent.delta] : []));
    assert.equal(deltas.join(""), "Claude says hi");
  });

  it("a command runs in our terminal: its output reaches the card, the editor's terminal and the model", async () => {
    decide = (request) => {
      const results = toolResults(request);
      if (results.length > 0) return { text: [`Saw: ${results.map(toolResultText).join(" ")}`] };
      if (lastUserText(request).includes("run")) return { toolUses: [{ name: "mcp__acp__Bash", input: { command: "echo out-$((40+2)); echo err-line >&2", timeout: 30000, description: "Print a line" } }] };
      return { text: ["?"] };
    };
    await client.request("prompt", { message: "run it" });
    await client.waitForSettled(60_000);
    assert.equal(asked.length, 1, "one question, for the command");
    assert.ok(asked[0]!.method === "select" && asked[0]!.title.includes("echo out-$((40+2))"), asked[0]!.title);
    // Ours ran it (a shell read the command line), and the editor's terminal showed it.
    assert.deepEqual(shown.created.map((c) => c.command), ["echo out-$((40+2)); echo err-line >&2"]);
    const [terminal] = shown.created;
    assert.match(shown.output.get(terminal!.id) ?? "", /out-42\n/);
    assert.match(shown.output.get(terminal!.id) ?? "", /err-line\n/, "stderr too");
    assert.equal(shown.exited.get(terminal!.id), 0);
    // The card shows the output: while it runs (an update) and once the call is done (its result).
    const end = events.find((e) => e.type === "tool_execution_end" && e.toolName === "bash");
    assert.ok(end && end.type === "tool_execution_end" && !end.isError, JSON.stringify(end));
    assert.match(cardText(end), /out-42/, "the card's result holds the terminal's output");
    // And the model got it, through the agent's terminal/output.
    const toModel = anthropic.requests.flatMap((r) => toolResults(r).map(toolResultText)).join("\n");
    assert.match(toModel, /out-42/);
    assert.match(toModel, /err-line/);
    assert.ok(events.some((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta" && e.assistantMessageEvent.delta.includes("Saw: ")));
  });

  it("Abort kills the command running in our terminal, and the run ends as aborted", async () => {
    const marker = path.join(cwd, "never.txt");
    decide = (request) => {
      if (toolResults(request).length > 0) return { text: ["after"] };
      return { toolUses: [{ name: "mcp__acp__Bash", input: { command: `sleep 30; echo late > ${marker}`, timeout: 60_000, description: "Wait" } }] };
    };
    await client.request("prompt", { message: "wait a while" });
    const deadline = Date.now() + 30_000;
    while (shown.created.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(shown.created.length, 1, "the command started in our terminal");
    const settled = client.waitFor("agent_settled", () => true, 30_000);
    const started = Date.now();
    await client.request("abort", {});
    assert.equal((await settled).aborted, true);
    assert.ok(Date.now() - started < 10_000, "Abort did not wait for the command");
    // The kill's exit is reported when the process is reaped, which need not come before the run
    // settles (ci-5, a loaded machine: it came after): waited for, not assumed.
    const killedBy = Date.now() + 5_000;
    while (!shown.exited.has(shown.created[0]!.id) && Date.now() < killedBy) await new Promise((r) => setTimeout(r, 20));
    assert.ok(shown.exited.has(shown.created[0]!.id), "the command was killed (its terminal says it ended)");
    assert.equal(shown.exited.get(shown.created[0]!.id), null, "killed, not exited");
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(fs.existsSync(marker), false, "the rest of the command line never ran");
  });

  it("a write goes through the client's fs as a card that names the file before it is written", async () => {
    const target = path.join(cwd, "w.txt");
    fs.writeFileSync(target, "before\n");
    let cardBeforeWrite = false;
    decide = (request) => {
      if (toolResults(request).length > 0) return { text: ["Written."] };
      return { toolUses: [{ name: "mcp__acp__Write", input: { file_path: target, content: "after\n" } }] };
    };
    client.onEvent((e) => {
      if (e.type === "tool_execution_start" && (e.args as { path?: string }).path === target && writes.length === 0) cardBeforeWrite = true;
    });
    await client.request("prompt", { message: "write it" });
    await client.waitForSettled(60_000);
    assert.equal(asked.length, 1, "one question, for the write");
    assert.deepEqual(writes, [{ path: target, content: "after\n" }]);
    assert.ok(cardBeforeWrite, "a card named the file before the write (checkpoint, review)");
    assert.equal(fs.readFileSync(target, "utf8"), "after\n");
  });

  it("Resume Session: its saved sessions listed (session/list) and one reopened (session/load), its history the chat's transcript", async () => {
    decide = () => ({ text: ["First ", "answer"] });
    await client.request("prompt", { message: "the first question" });
    await client.waitForSettled(60_000);
    const first = (await client.request("get_state", {})).sessionId;
    await client.request("new_session", {});
    assert.notEqual((await client.request("get_state", {})).sessionId, first);
    assert.deepEqual(transport().bridge.sessionSupport, { list: true, load: true });
    const listed = await transport().bridge.listSessions();
    assert.ok(listed.some((s) => s.sessionId === first), JSON.stringify(listed));
    const streamed = events.length;
    await transport().bridge.loadSession(first);
    assert.equal((await client.request("get_state", {})).sessionId, first);
    assert.deepEqual(events.slice(streamed).filter((e) => e.type.startsWith("message_") || e.type.startsWith("tool_")), [], "the replay is not streamed");
    const { messages } = await client.request("get_messages", {});
    const texts = messages.map((m) => {
      const content = "content" in m ? (m.content as string | { type: string; text?: string }[]) : "";
      return `${m.role}: ${typeof content === "string" ? content : content.map((c) => (c.type === "text" ? c.text : c.type)).join("")}`;
    });
    assert.ok(texts.some((t) => t.startsWith("user: ") && t.includes("the first question")), texts.join(" | "));
    assert.ok(texts.includes("assistant: First answer"), texts.join(" | "));
    decide = (request) => ({ text: [lastUserText(request).includes("again") ? "Second answer" : "?"] });
    await client.request("prompt", { message: "again" });
    await client.waitForSettled(60_000);
    const main = anthropic.requests.filter((r) => (r.body.tools ?? []).length > 0).at(-1)!;
    assert.match(JSON.stringify(main.body.messages), /the first question/, "the reopened session's history reached the model");
  });
});

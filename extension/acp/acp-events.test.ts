import { strict as assert } from "node:assert";
import type { AgentEvent } from "../../shared/protocol";
import { AcpEventTranslator } from "./acp-events";
import { piToolOf } from "./acp-tool-content";

function translator(): { t: AcpEventTranslator; events: AgentEvent[] } {
  const events: AgentEvent[] = [];
  return { t: new AcpEventTranslator((e) => events.push(e), () => "Agent"), events };
}

describe("ACP session/update as Pi events", () => {
  it("text and thought chunks are one streamed message with a thinking and a text block", () => {
    const { t, events } = translator();
    t.handle({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } });
    t.handle({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "He" } });
    t.handle({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "llo" } });
    t.finish("stop");
    assert.deepEqual(events.map((e) => (e.type === "message_update" ? e.assistantMessageEvent.type : e.type)), [
      "message_start", "thinking_start", "thinking_delta", "text_start", "text_delta", "text_delta", "thinking_end", "text_end", "message_end",
    ]);
    const end = events.at(-1);
    assert.ok(end?.type === "message_end" && end.message.role === "assistant");
    assert.deepEqual(end.message.content, [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "Hello" }]);
  });

  it("a write started before its input names its file when the input comes: a start with the path (the review's before)", () => {
    const { t, events } = translator();
    t.handle({ sessionUpdate: "tool_call", toolCallId: "w1", title: "write", kind: "edit", status: "pending", rawInput: {} });
    t.handle({ sessionUpdate: "tool_call_update", toolCallId: "w1", rawInput: { filePath: "/work/b.txt", content: "x" }, locations: [{ path: "/work/b.txt" }] });
    t.handle({ sessionUpdate: "tool_call_update", toolCallId: "w1", rawInput: { filePath: "/work/b.txt", content: "xy" }, locations: [{ path: "/work/b.txt" }] });
    const starts = events.filter((e) => e.type === "tool_execution_start");
    assert.equal(starts.length, 2, "started again once, when the path came");
    const last = starts.at(-1);
    assert.ok(last?.type === "tool_execution_start" && (last.toolName === "edit" || last.toolName === "write"));
    assert.equal((last.args as { path?: string }).path, "/work/b.txt");
  });

  it("a tool call closes the message, shows as a card, and its updates and end follow", () => {
    const { t, events } = translator();
    t.handle({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Let me look" } });
    t.handle({ sessionUpdate: "tool_call", toolCallId: "c1", title: "ls", kind: "execute", status: "pending", rawInput: { command: "ls -la" } });
    t.handle({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed", content: [{ type: "content", content: { type: "text", text: "a.txt" } }] });
    const types = events.map((e) => e.type);
    assert.deepEqual(types.slice(-4), ["message_end", "tool_execution_start", "tool_execution_update", "tool_execution_end"]);
    const start = events.find((e) => e.type === "tool_execution_start");
    assert.ok(start?.type === "tool_execution_start");
    assert.equal(start.toolName, "bash");
    assert.deepEqual(start.args, { title: "ls", command: "ls -la" });
    const end = events.at(-1);
    assert.ok(end?.type === "tool_execution_end" && !end.isError);
    assert.deepEqual(end.result.content, [{ type: "text", text: "a.txt" }]);
  });

  it("maps kinds: an edit with a diff is Pi's edit (or write for a new file), a read is read, the rest keep their kind", () => {
    assert.deepEqual(piToolOf({ title: "t", kind: "edit", content: [{ type: "diff", path: "/w/a", oldText: "x", newText: "y" }] }), { toolName: "edit", args: { title: "t", path: "/w/a", edits: [{ oldText: "x", newText: "y" }] } });
    assert.deepEqual(piToolOf({ title: "t", kind: "edit", content: [{ type: "diff", path: "/w/n", oldText: null, newText: "new" }] }), { toolName: "write", args: { title: "t", path: "/w/n", content: "new" } });
    assert.deepEqual(piToolOf({ title: "t", kind: "read", locations: [{ path: "/w/a" }] }), { toolName: "read", args: { title: "t", path: "/w/a" } });
    assert.deepEqual(piToolOf({ title: "q", kind: "search", rawInput: { pattern: "x" } }), { toolName: "search", args: { title: "q", pattern: "x" } });
    assert.deepEqual(piToolOf({ title: "q", kind: "other" }), { toolName: "tool", args: { title: "q" } });
  });

  it("the plan becomes our todos; the commands are announced", () => {
    const { t, events } = translator();
    t.handle({ sessionUpdate: "plan", entries: [{ content: "read", priority: "high", status: "completed" }, { content: "write", priority: "low", status: "in_progress" }] });
    t.handle({ sessionUpdate: "available_commands_update", availableCommands: [{ name: "memory", description: "Manage memory" }] });
    assert.deepEqual(events[0], { type: "todo_update", phases: [{ id: "acp-plan", name: "Plan", tasks: [{ id: "1", content: "read", status: "completed" }, { id: "2", content: "write", status: "in_progress" }] }] });
    assert.deepEqual(events[1], { type: "available_commands_update", commands: [{ name: "memory", description: "Manage memory" }] });
  });

  it("terminal output shows in the card of the call that embeds the terminal", () => {
    const held = new Map<string, string>();
    const events: AgentEvent[] = [];
    const t = new AcpEventTranslator((e) => events.push(e), () => "Agent", (id) => held.get(id));
    t.handle({ sessionUpdate: "tool_call", toolCallId: "c2", title: "make", kind: "execute", content: [{ type: "terminal", terminalId: "term-1" }] });
    held.set("term-1", "building\n");
    t.terminalOutput("term-1");
    const update = events.at(-1);
    assert.ok(update?.type === "tool_execution_update");
    assert.deepEqual(update.partialResult.content, [{ type: "text", text: "building\n" }]);
    held.set("term-9", "elsewhere");
    t.terminalOutput("term-9");
    assert.equal(events.at(-1), update, "another terminal's output is not this card's");
  });

  it("output that came before the agent embedded its terminal shows, and stays when a later update replaces the content (claude-code-acp)", () => {
    const held = new Map<string, string>([["term-1", "out-42\n"]]);
    const events: AgentEvent[] = [];
    const t = new AcpEventTranslator((e) => events.push(e), () => "Agent", (id) => held.get(id));
    t.handle({ sessionUpdate: "tool_call", toolCallId: "c5", title: "Terminal", kind: "execute", rawInput: {} });
    // The command ran and wrote before this update linked its terminal to the call.
    t.handle({ sessionUpdate: "tool_call_update", toolCallId: "c5", status: "in_progress", content: [{ type: "terminal", terminalId: "term-1" }] });
    const update = events.at(-1);
    assert.ok(update?.type === "tool_execution_update");
    assert.deepEqual(update.partialResult.content, [{ type: "text", text: "out-42\n" }]);
    t.handle({ sessionUpdate: "tool_call_update", toolCallId: "c5", status: "completed", content: [] });
    const end = events.at(-1);
    assert.ok(end?.type === "tool_execution_end" && !end.isError);
    assert.deepEqual(end.result.content, [{ type: "text", text: "out-42\n" }], "the result keeps the terminal's output");
  });

  it("a command first announced by a placeholder title gets its card's start again once its command is known (the header shows the command)", () => {
    const { t, events } = translator();
    t.handle({ sessionUpdate: "tool_call", toolCallId: "c6", title: "Terminal", kind: "execute", rawInput: {} });
    t.noteToolCall({ toolCallId: "c6", title: "`ls -la`", rawInput: { command: "ls -la", description: "List" } });
    const starts = events.filter((e) => e.type === "tool_execution_start");
    assert.deepEqual(starts.map((e) => e.type === "tool_execution_start" && (e.args as { command?: string }).command), ["Terminal", "ls -la"]);
    t.handle({ sessionUpdate: "tool_call_update", toolCallId: "c6", title: "List" });
    assert.equal(events.filter((e) => e.type === "tool_execution_start").length, 2, "a new title alone does not start it again");
  });

  it("a cancelled turn ends the open cards as cancelled errors, and the message as aborted", () => {
    const { t, events } = translator();
    t.handle({ sessionUpdate: "tool_call", toolCallId: "c3", title: "slow", kind: "execute" });
    t.finish("aborted");
    const end = events.at(-1);
    assert.ok(end?.type === "tool_execution_end" && end.isError);
    assert.match(JSON.stringify(end.result.content), /cancelled/);
  });

  it("a write served for a file no card named gets a card of its own; one the card's start named does not", () => {
    const { t, events } = translator();
    t.handle({ sessionUpdate: "tool_call", toolCallId: "c4", title: "Edit", kind: "edit", content: [{ type: "diff", path: "/w/named", oldText: "a", newText: "b" }] });
    const before = events.length;
    t.announceWrite("/w/named", "b")();
    assert.equal(events.length, before, "the agent's card already named it");
    const end = t.announceWrite("/w/other", "c");
    const start = events.at(-1);
    assert.ok(start?.type === "tool_execution_start" && start.toolName === "write");
    assert.deepEqual(start.args, { title: "Write /w/other", path: "/w/other", content: "c" });
    end("disk full");
    const last = events.at(-1);
    assert.ok(last?.type === "tool_execution_end" && last.isError);
  });
});

import { strict as assert } from "node:assert";
import { builtinModels } from "./models/catalogue";
import { IMAGE_OMITTED_NOTE, NO_RESULT_TEXT, TOOL_IMAGE_OMITTED_NOTE, transformMessages } from "./transform";
import type { AssistantMessage, Message, Model, ToolResultMessage, UserMessage } from "./types";
import { emptyUsage } from "./usage";

const model = (provider: string, id: string): Model => {
  const found = builtinModels.find((m) => m.provider === provider && m.id === id);
  assert.ok(found);
  return found;
};
const claude = model("anthropic", "claude-sonnet-4-5");
const gpt = model("openai", "gpt-5.5");
const gpt4o = model("openai", "gpt-4o");
const groq = model("groq", "llama-3.3-70b-versatile"); // text only, chat completions
const devstral = model("mistral", "devstral-medium-latest");
const gemini = model("google", "gemini-2.5-pro");

const user = (text: string): UserMessage => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
function assistant(from: Model, content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "stop"): AssistantMessage {
  return { role: "assistant", content, api: from.api, provider: from.provider, model: from.id, usage: emptyUsage(), stopReason, timestamp: 2 };
}
const call = (id: string, name = "read") => ({ type: "toolCall" as const, id, name, arguments: { path: "a.txt" } });
const result = (toolCallId: string, text = "ok", toolName = "read"): ToolResultMessage => ({ role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError: false, timestamp: 3 });

const deepFreeze = <T>(value: T): T => {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
};

describe("transformMessages", () => {
  it("leaves a same-model conversation as it is, signatures included", () => {
    const history: Message[] = deepFreeze([
      user("hi"),
      assistant(claude, [
        { type: "thinking", thinking: "let me see", thinkingSignature: "sig-1" },
        { type: "thinking", thinking: "", thinkingSignature: "sig-empty" },
        { type: "thinking", thinking: "secret", redacted: true, thinkingSignature: "enc" },
        { type: "text", text: "reading", textSignature: "ts" },
        call("toolu_01"),
      ], "toolUse"),
      result("toolu_01"),
      assistant(claude, [{ type: "text", text: "done" }]),
    ]);
    assert.deepEqual(transformMessages(history, claude), history);
  });

  it("thinking from another model becomes text; empty and redacted thinking are dropped; signatures go", () => {
    const history: Message[] = deepFreeze([
      user("hi"),
      assistant(claude, [
        { type: "thinking", thinking: "step one", thinkingSignature: "sig-1" },
        { type: "thinking", thinking: "   ", thinkingSignature: "sig-2" },
        { type: "thinking", thinking: "opaque", redacted: true },
        { type: "text", text: "answer", textSignature: "ts" },
      ]),
    ]);
    const out = transformMessages(history, gpt);
    assert.deepEqual((out[1] as AssistantMessage).content, [
      { type: "text", text: "step one" },
      { type: "text", text: "answer" },
    ]);
  });

  it("same provider but another model is another model: no signatures kept", () => {
    const opus = model("anthropic", "claude-opus-4-8");
    const out = transformMessages([assistant(claude, [{ type: "thinking", thinking: "hmm", thinkingSignature: "s" }])], opus);
    assert.deepEqual((out[0] as AssistantMessage).content, [{ type: "text", text: "hmm" }]);
  });

  it("drops Google's thoughtSignature on tool calls for other models and keeps it for the same one", () => {
    const history: Message[] = [assistant(gemini, [{ ...call("c1"), thoughtSignature: "g-sig" }], "toolUse"), result("c1")];
    assert.equal(((transformMessages(history, gemini)[0] as AssistantMessage).content[0] as { thoughtSignature?: string }).thoughtSignature, "g-sig");
    assert.equal("thoughtSignature" in (transformMessages(history, claude)[0] as AssistantMessage).content[0], false);
  });

  it("rewrites tool-call ids Anthropic rejects, consistently in calls and results", () => {
    const longId = `call_${"x".repeat(80)}`;
    const history: Message[] = [
      user("go"),
      assistant(gpt, [call("call_abc|fc_123+/="), call(longId), call("toolu_fine")], "toolUse"),
      result("call_abc|fc_123+/="),
      result(longId),
      result("toolu_fine"),
    ];
    const out = transformMessages(history, claude);
    const ids = (out[1] as AssistantMessage).content.map((b) => (b.type === "toolCall" ? b.id : ""));
    assert.equal(ids[0], "call_abc_fc_123___");
    assert.match(ids[1], /^call_x+_[0-9a-f]{8}$/);
    assert.equal(ids[1].length, 64);
    assert.equal(ids[2], "toolu_fine");
    for (const id of ids) assert.match(id, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.deepEqual(out.slice(2).map((m) => (m as ToolResultMessage).toolCallId), ids);
  });

  it("never maps two ids to one", () => {
    const history: Message[] = [assistant(gpt, [call("a|b"), call("a_b"), call("a.b")], "toolUse"), result("a|b", "1"), result("a_b", "2"), result("a.b", "3")];
    const out = transformMessages(history, claude);
    const ids = (out[0] as AssistantMessage).content.map((b) => (b.type === "toolCall" ? b.id : ""));
    assert.equal(new Set(ids).size, 3);
    assert.equal(ids[1], "a_b", "an already valid id keeps its name");
    const byText = Object.fromEntries(out.slice(1).map((m) => [((m as ToolResultMessage).content[0] as { text: string }).text, (m as ToolResultMessage).toolCallId]));
    assert.deepEqual(byText, { 1: ids[0], 2: ids[1], 3: ids[2] });
  });

  it("Chat Completions: at most 40 characters; Mistral: exactly 9 letters or digits", () => {
    const long = "toolu_01ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"; // 43 characters
    const history: Message[] = [assistant(claude, [call(long), call("toolu_short")], "toolUse"), result(long), result("toolu_short")];
    const chat = transformMessages(history, groq);
    const chatIds = (chat[0] as AssistantMessage).content.map((b) => (b.type === "toolCall" ? b.id : ""));
    assert.equal(chatIds[0].length, 40);
    assert.equal(chatIds[1], "toolu_short");
    assert.equal((chat[1] as ToolResultMessage).toolCallId, chatIds[0]);
    const mistral = transformMessages(history, devstral);
    const mistralIds = (mistral[0] as AssistantMessage).content.map((b) => (b.type === "toolCall" ? b.id : ""));
    for (const id of mistralIds) assert.match(id, /^[A-Za-z0-9]{9}$/);
    assert.notEqual(mistralIds[0], mistralIds[1]);
    assert.deepEqual(mistral.slice(1).map((m) => (m as ToolResultMessage).toolCallId), mistralIds);
  });

  it("OpenAI Responses keeps its own call|item ids but not another provider's", () => {
    const xai = model("xai", "grok-4.7");
    const history: Message[] = [assistant(gpt, [call("call_1|fc_1")], "toolUse"), result("call_1|fc_1")];
    assert.equal(((transformMessages(history, gpt)[0] as AssistantMessage).content[0] as { id: string }).id, "call_1|fc_1");
    assert.equal(((transformMessages(history, model("openai", "gpt-5.4"))[0] as AssistantMessage).content[0] as { id: string }).id, "call_1|fc_1", "same provider and API");
    assert.equal(((transformMessages(history, xai)[0] as AssistantMessage).content[0] as { id: string }).id, "call_1_fc_1");
  });

  it("orphaned tool calls get a synthetic error result before the next user or assistant message, and at the end", () => {
    const history: Message[] = [
      user("go"),
      assistant(claude, [call("t1"), call("t2", "bash")], "toolUse"),
      result("t1"),
      user("never mind"),
      assistant(claude, [call("t3")], "toolUse"),
      assistant(claude, [call("t4")], "toolUse"),
    ];
    const out = transformMessages(history, claude);
    const shape = out.map((m) => (m.role === "toolResult" ? `result ${m.toolCallId}${m.isError ? " (error)" : ""}` : m.role));
    assert.deepEqual(shape, ["user", "assistant", "result t1", "result t2 (error)", "user", "assistant", "result t3 (error)", "assistant", "result t4 (error)"]);
    const synthetic = out[3] as ToolResultMessage;
    assert.deepEqual([synthetic.toolName, synthetic.content], ["bash", [{ type: "text", text: NO_RESULT_TEXT }]]);
  });

  it("failed and aborted turns are not replayed, nor the results of their tool calls", () => {
    const history: Message[] = [
      user("go"),
      assistant(claude, [{ type: "text", text: "partial" }, call("lost")], "aborted"),
      result("lost", "cancelled"),
      assistant(claude, [{ type: "thinking", thinking: "half a thought" }], "error"),
      user("again"),
      assistant(claude, [{ type: "text", text: "fine" }]),
    ];
    const out = transformMessages(history, claude);
    assert.deepEqual(out.map((m) => m.role), ["user", "user", "assistant"]);
    assert.deepEqual((out[2] as AssistantMessage).content, [{ type: "text", text: "fine" }]);
  });

  it("an assistant message left empty is dropped", () => {
    const history: Message[] = [user("a"), assistant(claude, [{ type: "thinking", thinking: "" }]), user("b")];
    assert.deepEqual(transformMessages(history, gpt).map((m) => m.role), ["user", "user"]);
  });

  it("images become a note for a model without image input, one note per run of images", () => {
    const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const history: Message[] = deepFreeze([
      { role: "user", content: [{ type: "text", text: "look" }, image, image, { type: "text", text: "and" }, image], timestamp: 1 },
      assistant(gpt4o, [call("c1", "screenshot")], "toolUse"),
      { role: "toolResult", toolCallId: "c1", toolName: "screenshot", content: [image, { type: "text", text: "shot" }], isError: false, timestamp: 3 },
    ]);
    const out = transformMessages(history, groq);
    assert.deepEqual((out[0] as UserMessage).content, [
      { type: "text", text: "look" },
      { type: "text", text: IMAGE_OMITTED_NOTE },
      { type: "text", text: "and" },
      { type: "text", text: IMAGE_OMITTED_NOTE },
    ]);
    assert.deepEqual((out[2] as ToolResultMessage).content, [{ type: "text", text: TOOL_IMAGE_OMITTED_NOTE }, { type: "text", text: "shot" }]);
    assert.deepEqual(transformMessages(history, claude), history, "kept for a model with image input");
  });

  it("a user message given as a string passes through", () => {
    const history: Message[] = [{ role: "user", content: "plain", timestamp: 1 }];
    assert.deepEqual(transformMessages(history, groq), history);
  });
});

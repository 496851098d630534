import { strict as assert } from "node:assert";
import { LmError } from "./lm-backend";
import { readChatCompletionsRequest } from "./openai-request";

const bad = (body: unknown, pattern: RegExp) =>
  assert.throws(() => readChatCompletionsRequest(body), (error: unknown) => error instanceof LmError && error.code === "BadRequest" && pattern.test(error.message));

describe("vscode-lm: an OpenAI chat-completions request read for vscode.lm", () => {
  it("puts the system prompt first in the first user turn, merges turns of one role, keeps tool calls and results paired", () => {
    const read = readChatCompletionsRequest({
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "Be brief." },
        { role: "developer", content: [{ type: "text", text: "Use tools." }] },
        { role: "user", content: "Read a.txt" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } }] },
        { role: "tool", tool_call_id: "c1", content: "alpha" },
        { role: "user", content: [{ type: "text", text: "and?" }, { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0K" } }] },
      ],
      tools: [{ type: "function", function: { name: "read", description: "Read a file", parameters: { type: "object" } } }],
    });
    assert.equal(read.stream, true);
    assert.equal(read.includeUsage, true);
    assert.deepEqual(read.request.messages.map((m) => [m.role, m.parts.map((p) => p.type)]), [
      ["user", ["text", "text", "text"]],
      ["assistant", ["tool_call"]],
      ["user", ["tool_result", "text", "image"]],
    ]);
    assert.deepEqual(read.request.messages[0]!.parts.map((p) => (p.type === "text" ? p.text : "")), ["Be brief.", "Use tools.", "Read a.txt"]);
    assert.deepEqual(read.request.messages[1]!.parts[0], { type: "tool_call", id: "c1", name: "read", input: { path: "a.txt" } });
    const image = read.request.messages[2]!.parts[2];
    assert.ok(image?.type === "image" && image.mimeType === "image/png" && image.data.length > 0);
    assert.deepEqual(read.request.tools, [{ name: "read", description: "Read a file", inputSchema: { type: "object" } }]);
    assert.equal(read.request.toolsRequired, false);
  });

  it("follows tool_choice: none drops the tools, required or a named function requires one", () => {
    const base = { model: "m", messages: [{ role: "user", content: "x" }], tools: [{ type: "function", function: { name: "t" } }] };
    assert.deepEqual(readChatCompletionsRequest({ ...base, tool_choice: "none" }).request.tools, []);
    assert.equal(readChatCompletionsRequest({ ...base, tool_choice: "required" }).request.toolsRequired, true);
    assert.equal(readChatCompletionsRequest({ ...base, tool_choice: { type: "function", function: { name: "t" } } }).request.toolsRequired, true);
  });

  it("refuses what it cannot read, saying where (400 in OpenAI's shape at the endpoint)", () => {
    bad(null, /not a JSON object/);
    bad([], /not a JSON object/);
    bad({ messages: [] }, /model/);
    bad({ model: "m", messages: {} }, /messages/);
    bad({ model: "m", messages: [{ role: "function", content: "x" }] }, /messages\[0\]\.role/);
    bad({ model: "m", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }] }] }, /data: URLs/);
    bad({ model: "m", messages: [{ role: "user", content: [{ type: "input_audio" }] }] }, /unsupported part/);
    bad({ model: "m", messages: [{ role: "assistant", tool_calls: [{ id: "c", function: { name: "t", arguments: "{oops" } }] }] }, /not JSON/);
    bad({ model: "m", messages: [{ role: "tool", content: "x" }] }, /tool_call_id/);
    bad({ model: "m", messages: [], tools: [{ type: "function" }] }, /tools\[0\]/);
  });

  it("keeps a tool call's non-object arguments as data, and inherited names as plain keys", () => {
    const read = readChatCompletionsRequest(JSON.parse('{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"t","arguments":"[1,2]"}}]},{"role":"assistant","tool_calls":[{"id":"d","function":{"name":"u","arguments":"{\\"__proto__\\":{\\"polluted\\":true}}"}}]}]}'));
    const [first, second] = read.request.messages[0]!.parts;
    assert.deepEqual(first, { type: "tool_call", id: "c", name: "t", input: { value: [1, 2] } });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.ok(second?.type === "tool_call" && Object.prototype.hasOwnProperty.call(second.input, "__proto__"));
  });
});

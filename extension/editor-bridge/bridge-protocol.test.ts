import { strict as assert } from "node:assert";
import { parseForeignJson } from "../../shared/foreign-json";
import { checkHandoff, checkLine, checkToolResult } from "./bridge-protocol";

const token = "t".repeat(43);
const tool = { name: "editor_read", description: "d", parameters: { type: "object" } };

describe("editor bridge protocol: what crosses the channel is checked", () => {
  it("takes a handoff on 127.0.0.1 with a token and well-named tools", () => {
    assert.deepEqual(checkHandoff({ url: "http://127.0.0.1:4321", token, tools: [{ ...tool, label: "Read" }] }), { url: "http://127.0.0.1:4321", token, tools: [{ ...tool, label: "Read" }] });
  });

  it("refuses a handoff elsewhere, without a token, with a tool that is not one", () => {
    for (const [what, handoff] of [
      ["another host", { url: "http://evil.example:80", token, tools: [] }],
      ["https to localhost by name", { url: "https://localhost:1", token, tools: [] }],
      ["a path after the port", { url: "http://127.0.0.1:1/x", token, tools: [] }],
      ["userinfo", { url: "http://a@127.0.0.1:1", token, tools: [] }],
      ["a short token", { url: "http://127.0.0.1:1", token: "short", tools: [] }],
      ["a name with a slash", { url: "http://127.0.0.1:1", token, tools: [{ ...tool, name: "../x" }] }],
      ["parameters that are not an object", { url: "http://127.0.0.1:1", token, tools: [{ ...tool, parameters: "x" }] }],
      ["no tools", { url: "http://127.0.0.1:1", token }],
    ] as const) {
      assert.equal(typeof checkHandoff(handoff), "string", what);
    }
  });

  it("keeps a tool result to text and image parts and details", () => {
    const crafted = parseForeignJson(JSON.stringify({
      content: [
        { type: "text", text: "ok", extra: 1 },
        { type: "toolCall", id: "x", name: "bash", arguments: {} },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "image", data: "AAAA", mimeType: "text/html" },
        { type: "text", text: 42 },
        "a string",
      ],
      details: { d: 1 },
      terminate: true,
      isError: true,
    }));
    assert.ok(crafted.ok);
    const checked = checkToolResult(crafted.value)!;
    assert.deepEqual(checked.content, [{ type: "text", text: "ok" }, { type: "image", data: "AAAA", mimeType: "image/png" }]);
    assert.deepEqual({ ...(checked.details as object) }, { d: 1 });
    assert.deepEqual(Object.keys(checked), ["content", "details"]);
    assert.equal(checkToolResult({ content: "text" }), undefined);
  });

  it("reads update and result lines, an error only when it says isError: true", () => {
    assert.deepEqual(checkLine({ type: "update", partialResult: { content: [{ type: "text", text: "p" }] } }), { type: "update", partialResult: { content: [{ type: "text", text: "p" }] } });
    assert.deepEqual(checkLine({ type: "result", result: { content: [] }, isError: "yes" }), { type: "result", result: { content: [] } });
    assert.deepEqual(checkLine({ type: "result", result: { content: [] }, isError: true }), { type: "result", result: { content: [] }, isError: true });
    assert.equal(checkLine({ type: "exec", command: "rm" }), undefined);
    assert.equal(checkLine(null), undefined);
  });
});

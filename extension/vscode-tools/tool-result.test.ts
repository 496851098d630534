import { strict as assert } from "node:assert";
import { modelToolName, offeredTools, toolOutcome } from "./tool-result";

describe("vscode-tools: a VS Code tool's result and name for the agent", () => {
  it("keeps text, prompt-tsx values as JSON, images as images and other data as text", () => {
    const png = new Uint8Array([137, 80, 78, 71]);
    const outcome = toolOutcome([{ value: "plain" }, { value: { node: 1 } }, { data: png, mimeType: "image/png" }, { data: new TextEncoder().encode("{\"a\":1}"), mimeType: "application/json" }, null, 7]);
    assert.deepEqual(outcome.content, [
      { type: "text", text: "plain" },
      { type: "text", text: '{"node":1}' },
      { type: "image", mimeType: "image/png", data: Buffer.from(png).toString("base64") },
      { type: "text", text: '{"a":1}' },
    ]);
    assert.deepEqual(toolOutcome([]).content, [{ type: "text", text: "(the tool returned nothing)" }]);
  });

  it("gives a provider-safe name to any tool name", () => {
    assert.equal(modelToolName("mcp_github_search"), "mcp_github_search");
    assert.equal(modelToolName("vscode.search files"), "vscode_search_files");
    assert.equal(modelToolName("x".repeat(80)).length, 64);
    assert.equal(modelToolName(""), "tool");
  });

  it("never lets a chosen tool stand in for Pi's own or the editor's tools, nor two take one name", () => {
    const { offered, refused } = offeredTools(["read", "editor_edit", "editor.edit", "mcp_fs_read", "mcp.fs.read", "bash"]);
    assert.deepEqual(offered, [{ name: "mcp_fs_read", modelName: "mcp_fs_read" }]);
    assert.deepEqual(refused.map((r) => r.name), ["read", "editor_edit", "editor.edit", "mcp.fs.read", "bash"]);
  });
});

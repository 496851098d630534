import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { schemaType, scriptIdentifier } from "./description";
import { discover, type CallableTool } from "./discovery";
import { resultContent } from "./output";
import { parseSource } from "./source";
import { readStore } from "./store";
import { scriptReach } from "./tool";

describe("codemode: the options line, the result text, discovery", () => {
  it("takes the options line off the first line only, and refuses bad or misplaced ones", () => {
    assert.deepEqual(parseSource('// @options: {"max_output_tokens": 5, "timeout_ms": 100}\nreturn 1;'), { code: "\nreturn 1;", options: { maxOutputTokens: 5, timeoutMs: 100 } });
    assert.deepEqual(parseSource("return 1;"), { code: "return 1;", options: {} });
    assert.throws(() => parseSource("const a = 1;\n  // @options: {}\n"), /must be the first line of the input; found one on line 2/);
    assert.throws(() => parseSource('// @options: {"memory": 1}\nx'), /only supports/);
    assert.throws(() => parseSource('// @options: {"timeout_ms": 0}\nx'), /positive integer/);
    assert.throws(() => parseSource('// @options: {"timeout_ms": 1e12}\nx'), /positive integer/);
    assert.throws(() => parseSource("// @options: [1]\nx"), /JSON object/);
    assert.throws(() => parseSource('// @options: {"timeout_ms": 5}'), /followed by JavaScript/);
    assert.throws(() => parseSource("   \n"), /non-empty/);
  });

  it("lays the output out as Pi does: header, numbered text items, console block, the error with the calls made", () => {
    const ok = resultContent({ ok: true, output: [{ type: "text", text: "a" }, { type: "text", text: "log", console: true }], value: "b", calls: [], wallMs: 1234 });
    assert.deepEqual(ok, [
      { type: "text", text: "Script completed\nWall time 1.2 seconds\nOutput:\n" },
      { type: "text", text: "==> text 1/2 <==\na\n==> text 2/2 <==\nb\n<console_output>\nlog\n</console_output>" },
    ]);
    const failed = resultContent({ ok: false, output: [{ type: "text", text: "partial" }], error: { kind: "timeout", message: "Execution timed out after 5 ms" }, calls: [{ name: "mcp__s__t", status: "ok" }], wallMs: 0 });
    assert.equal(failed[0]!.type === "text" && failed[0]!.text, "Script failed\nWall time 0.0 seconds\nOutput:\n");
    assert.equal(failed[1]!.type === "text" && failed[1]!.text, "partial\nScript error:\nScript timed out: Execution timed out after 5 ms\n\nTool calls made before the failure (they are not undone): mcp__s__t (ok)");
  });

  it("keeps the start and end of a long output and saves the whole of it; saves images and names the file", () => {
    const [, body] = resultContent({ ok: true, output: [{ type: "text", text: `HEAD${"x".repeat(1000)}TAIL` }], calls: [], wallMs: 0, maxOutputTokens: 10 });
    const text = body!.type === "text" ? body!.text : "";
    assert.match(text, /^Warning: truncated output \(original token count: 252\)/);
    assert.match(text, /HEAD/);
    assert.match(text, /TAIL\n\n\[Full output: /);
    const file = /\[Full output: (.+) \(read with offset\/limit\)\]/.exec(text)![1]!;
    assert.equal(readFileSync(file, "utf8"), `HEAD${"x".repeat(1000)}TAIL`);
    const png = Buffer.from("89504e470d0a1a0a", "hex").toString("base64");
    const withImage = resultContent({ ok: true, output: [{ type: "image", data: png, mimeType: "image/png" }], calls: [], wallMs: 0 });
    assert.match(withImage[1]!.type === "text" ? withImage[1]!.text : "", /^\[Image saved to .+\.png \(image\/png, 8 bytes\)\]$/);
    assert.deepEqual(withImage[2], { type: "image", data: png, mimeType: "image/png" });
  });

  it("names tools as script identifiers and renders their parameters as TypeScript", () => {
    assert.equal(scriptIdentifier("mcp__dev-radius__search"), "mcp__dev_radius__search");
    assert.equal(scriptIdentifier("1st"), "_st");
    assert.equal(schemaType({ type: "object", properties: { a: { type: "number", description: "First" }, "b-c": { type: "array", items: { enum: ["x", "y"] } } }, required: ["a"] }), '{ /** First */ a: number; "b-c"?: ("x" | "y")[]; }');
  });

  it("answers searchTools, describeTool and describeNamespace over the callable tools only", () => {
    const tool = (name: string, description: string, server?: string): CallableTool => ({
      tool: { name, label: name, description, parameters: { type: "object", properties: {} } as never, execute: async () => ({ content: [] }) },
      mcp: server !== undefined,
      ...(server ? { namespace: { name: `mcp__${server.replace(/-/g, "_")}`, server, description: "Docs" } } : {}),
      searchable: { name, description, parameterText: "", serverText: server ?? "" },
    });
    const callable = [tool("mcp__dev_radius__search", "Search the docs", "dev-radius"), tool("read", "Read a file")];
    for (const alias of ["mcp__dev-radius", "mcp__dev_radius", "dev-radius", "dev_radius"]) {
      assert.deepEqual(discover("describeNamespace", [alias], callable), { name: "mcp__dev_radius", description: "Docs", tools: ["mcp__dev_radius__search"] }, alias);
    }
    assert.equal(discover("describeNamespace", ["other"], callable), undefined);
    assert.deepEqual((discover("searchTools", ["search docs", { namespace: "dev-radius" }], callable) as { name: string }[]).map((t) => t.name), ["mcp__dev_radius__search"]);
    assert.match(String(discover("describeTool", ["read"], callable)), /Read a file\n\ncodemode tool declaration:\n```ts\ndeclare const tools: \{ read\(args: \{\}\): Promise<string>; \};\n```/);
    assert.equal(discover("describeTool", ["mcp__hidden__x"], callable), undefined);
    assert.throws(() => discover("searchTools", ["x", { limit: 0 }], callable), /positive integer/);
    assert.throws(() => discover("describeTool", [42], callable), /expects a tool name/);
  });

  it("reads store() values from the branch's codemode-store entries, root first, as Pi writes them", () => {
    const entry = (data: unknown) => ({ type: "custom", customType: "codemode-store", data });
    assert.deepEqual(
      readStore([entry({ set: { a: 1, b: { x: [1] } }, delete: [] }), { type: "message" }, entry({ set: { a: 2 }, delete: ["b"] }), entry({ set: "broken", delete: [] }), { type: "custom", customType: "other", data: { set: { c: 3 }, delete: [] } }]),
      { a: 2 },
    );
  });

  it("knows which servers a script reaches: all when it searches, else the words it names", () => {
    assert.equal(scriptReach("const t = await searchTools('x');"), "all");
    assert.equal(scriptReach("ALL_TOOLS.length"), "all");
    assert.deepEqual(scriptReach("await tools.mcp__docs__get({ a: 1 })"), ["await", "tools", "mcp__docs__get", "a", "1"]);
    assert.ok((scriptReach("tools['mcp__docs__' + name]()") as string[]).includes("mcp__docs__"));
  });
});

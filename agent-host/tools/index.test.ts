import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { allToolNames, createAllTools, createCodingTools, createReadOnlyTools, createTool } from "./index";

/** pi 0.87.1's parameters, name → [type, required] (from its tool schemas), so sessions carry over. */
const PI_PARAMETERS: Record<string, Record<string, [string, boolean]>> = {
  read: { path: ["string", true], offset: ["number", false], limit: ["number", false] },
  bash: { command: ["string", true], timeout: ["number", false] },
  edit: { path: ["string", true], edits: ["array", true] },
  write: { path: ["string", true], content: ["string", true] },
  grep: {
    pattern: ["string", true],
    path: ["string", false],
    glob: ["string", false],
    ignoreCase: ["boolean", false],
    literal: ["boolean", false],
    context: ["number", false],
    limit: ["number", false],
  },
  find: { pattern: ["string", true], path: ["string", false], limit: ["number", false] },
  ls: { path: ["string", false], limit: ["number", false] },
};

describe("tools/index", () => {
  it("creates pi's default set in pi's order, and the read-only and full sets", () => {
    assert.deepEqual(createCodingTools("/w").map((t) => t.name), ["read", "bash", "edit", "write"]);
    assert.deepEqual(createReadOnlyTools("/w").map((t) => t.name), ["read", "grep", "find", "ls"]);
    assert.deepEqual(Object.keys(createAllTools("/w")), ["read", "bash", "edit", "write", "grep", "find", "ls"]);
    assert.throws(() => createTool("nope" as never, "/w"), /Unknown tool name: nope/);
  });

  it("declares exactly pi's parameter names, types and required fields", () => {
    for (const name of allToolNames) {
      const schema = createTool(name, "/w").parameters as unknown as { properties: Record<string, { type: string }>; required?: string[] };
      const actual = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, [v.type, (schema.required ?? []).includes(k)]]));
      assert.deepEqual(actual, PI_PARAMETERS[name], name);
    }
    const edits = (createTool("edit", "/w").parameters as unknown as { properties: { edits: { items: { properties: object; required: string[] } } } }).properties.edits.items;
    assert.deepEqual([Object.keys(edits.properties), edits.required], [["oldText", "newText"], ["oldText", "newText"]]);
  });

  it("states pi's limits in the descriptions", () => {
    const tools = createAllTools("/w");
    assert.match(tools.read.description, /2000 lines or 50KB/);
    assert.match(tools.bash.description, /last 2000 lines or 50KB/);
    assert.match(tools.grep.description, /100 matches or 50KB.*500 chars/);
    assert.match(tools.find.description, /1000 results or 50KB/);
    assert.match(tools.ls.description, /500 entries or 50KB/);
  });

  it("keeps the layer rule: tools import only agent/, ai/, shared/, node:, TypeBox and minimatch", () => {
    const dir = __dirname;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const source = readFileSync(join(dir, file), "utf-8");
      for (const [, spec] of source.matchAll(/^import[^"']*["']([^"']+)["']/gm)) {
        const ok = spec.startsWith("node:") || spec === "@sinclair/typebox" || spec === "minimatch" || /^\.\/[\w-]+$/.test(spec) || /^\.\.\/(agent|ai)\//.test(spec) || spec.startsWith("../../shared/");
        assert.ok(ok, `${file} imports ${spec}`);
      }
    }
  });
});

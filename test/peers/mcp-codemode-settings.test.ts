/**
 * settings.json's `codemode.mode` and `codemode.inlineBudget` (pi 1.x, docs/settings.md#tools) in
 * our host and in pi 1.5.2 (the real peer), with the reference MCP server: what each declares to
 * the model, what the system prompt lists, and what codemode's description lists.
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messageText, toolNames, toolResultMessages, type RecordedRequest } from "../support/mock-llm";
import { run, start, stdioServer, stop, systemText } from "./mcp-support";

const MODELS_LINE = /\n- `models`: [^\n]*/;
const config = { mcpServers: { "docs-web": stdioServer({ description: "Reference server", toolExposure: { echo: "direct", "get-sum": "direct" } }) } };

async function firstRequest(kind: "host" | "pi-1.5.2", settings: object, cwd?: string, extraArgs: string[] = []): Promise<RecordedRequest> {
  const s = await start(kind, config, { settings, extraArgs, ...(cwd ? { cwd } : {}) });
  try {
    await run(s, "hi");
    return s.llm.requests[0]!;
  } finally {
    await stop(s);
  }
}

const codemodeOf = (request: RecordedRequest): string => String(request.body.tools?.find((t) => t.function.name === "codemode")?.function.description ?? "").replace(MODELS_LINE, "");
const listedTools = (request: RecordedRequest): string[] => /<tools>\n([\s\S]*?)\n\n/.exec(systemText(request))?.[1]?.split("\n") ?? [];
const headings = (description: string): string[] => description.split("\n").filter((line) => /^#{2,3} /.test(line));

describe("codemode settings in our host and pi 1.5.2", function () {
  this.timeout(120_000);

  it("`only` with inlineBudget 0: only codemode declared and listed, its description the same (namespaces only)", async function () {
    const seen: Record<string, { declared: string[]; listed: string[]; description: string }> = {};
    for (const kind of ["host", "pi-1.5.2"] as const) {
      const request = await firstRequest(kind, { codemode: { mode: "only", inlineBudget: 0 } });
      seen[kind] = { declared: toolNames(request), listed: listedTools(request), description: codemodeOf(request) };
    }
    assert.deepEqual(seen.host, seen["pi-1.5.2"]);
    assert.deepEqual(seen.host!.declared, ["codemode"]);
    assert.match(seen.host!.description, /\n\nNested tools:\n\n## mcp__docs_web \(tools not listed\)\nReference server$/);
  });

  it("`only` with a budget that fits all: the same tools listed, each with its declaration, the built-ins' rules in theirs", async function () {
    const seen: Record<string, string[]> = {};
    let host = "";
    for (const kind of ["host", "pi-1.5.2"] as const) {
      const request = await firstRequest(kind, { codemode: { mode: "only", inlineBudget: 1_000_000 } });
      seen[kind] = headings(codemodeOf(request));
      if (kind === "host") host = codemodeOf(request);
    }
    assert.deepEqual(seen.host, seen["pi-1.5.2"]);
    assert.deepEqual(seen.host, ["### `read`", "### `bash`", "### `edit`", "### `write`", "## mcp__docs_web", "### `mcp__docs_web__echo`", "### `mcp__docs_web__get_sum`"]);
    // Our own words for read's rule (system-prompt.ts), carried in its declaration.
    assert.match(host, /### `read`\n[^#]*\n\n- Look at files with read rather than with cat or sed\.\n\ncodemode tool declaration:/);
  });

  it("`on` (default) and an invalid budget: the built-ins and direct tools stay declared, codemode lists none", async function () {
    const seen: Record<string, { declared: string[]; description: string }> = {};
    for (const kind of ["host", "pi-1.5.2"] as const) {
      const request = await firstRequest(kind, { codemode: { inlineBudget: 0 } });
      seen[kind] = { declared: toolNames(request).sort(), description: codemodeOf(request) };
    }
    assert.deepEqual(seen.host, seen["pi-1.5.2"]);
    assert.ok(seen.host!.declared.includes("read") && seen.host!.declared.includes("mcp__docs_web__echo"));
    assert.doesNotMatch(seen.host!.description, /Nested tools/);
  });

  it("in `only` mode a script still calls the hidden built-ins; the project's settings count only when it is trusted", async function () {
    const cwd = mkdtempSync(join(tmpdir(), "mcp-cm-only-"));
    writeFileSync(join(cwd, "note.txt"), "hidden but callable");
    mkdirSync(join(cwd, ".pi"));
    writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify({ codemode: { mode: "only" } }));
    // Not trusted: the project's `only` is not read.
    assert.ok(toolNames(await firstRequest("host", {}, cwd, ["--no-approve"])).includes("read"));
    const s = await start("host", config, { cwd, settings: {}, extraArgs: ["--approve"] });
    try {
      s.llm.enqueue({ toolCalls: [{ id: "c", name: "codemode", arguments: { code: "return await tools.read({ path: 'note.txt' });" } }] }, { text: "ok" });
      await run(s, "read it");
      assert.deepEqual(toolNames(s.llm.requests[0]!), ["codemode"]);
      assert.match(messageText(toolResultMessages(s.llm.requests[1]!).at(-1)!), /Script completed[\s\S]*hidden but callable/);
    } finally {
      await stop(s);
    }
  });

  it("in `only` mode tools added later (the client's set_host_tools) are listed in codemode too, not declared, and the built-ins stay callable", async function () {
    const cwd = mkdtempSync(join(tmpdir(), "mcp-cm-only-"));
    writeFileSync(join(cwd, "note.txt"), "still here");
    const s = await start("host", config, { cwd, settings: { codemode: { mode: "only" } } });
    try {
      await s.peer.client.request("set_host_tools", { tools: [{ name: "editor_open", description: "Opens a file in the editor.", parameters: { type: "object", properties: { path: { type: "string" } } } }] });
      s.llm.enqueue({ toolCalls: [{ id: "c", name: "codemode", arguments: { code: "return await tools.read({ path: 'note.txt' });" } }] }, { text: "ok" });
      await run(s, "read it");
      assert.deepEqual(toolNames(s.llm.requests[0]!), ["codemode"]);
      assert.ok(headings(codemodeOf(s.llm.requests[0]!)).includes("### `editor_open`"));
      assert.deepEqual(toolNames(s.llm.requests[1]!), ["codemode"]);
      assert.match(messageText(toolResultMessages(s.llm.requests[1]!).at(-1)!), /Script completed[\s\S]*still here/);
    } finally {
      await stop(s);
    }
  });
});

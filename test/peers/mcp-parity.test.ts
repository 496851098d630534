/**
 * The same mcp.json in our host and in pi 1.5.2 (the real peer), with the reference server: the
 * same direct tools with the same parameters, the same mcp_servers section for a deferred one,
 * and for a codemode one (Pi's default) the same codemode tool and section.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messageText, toolNames, toolResultMessages, type RecordedRequest } from "../support/mock-llm";
import { mcpTools, run, start, stdioServer, stop, systemText } from "./mcp-support";

/** The agent's first model request for a prompt, with this mcp.json. */
async function firstRequest(kind: "host" | "pi-1.5.2", config: object): Promise<RecordedRequest> {
  const s = await start(kind, config);
  try {
    await run(s, "hi");
    return s.llm.requests[0]!;
  } finally {
    await stop(s);
  }
}

const serversSectionOf = (request: RecordedRequest): string | undefined => /MCP servers whose tools are not declared to you\.[^\n]*(\n- [^\n]*)*/.exec(systemText(request))?.[0];

describe("the same mcp.json in our host and pi 1.5.2", function () {
  this.timeout(120_000);

  it("offers the same direct MCP tools with the same parameters", async function () {
    const config = { mcpServers: { everything: stdioServer({ exposure: "direct" }) } };
    const offered: Record<string, Map<string, string>> = {};
    for (const kind of ["host", "pi-1.5.2"] as const) {
      const s = await start(kind, config);
      try {
        await run(s, "hi");
        const tools = (s.llm.requests[0]!.body.tools ?? []).filter((t) => t.function.name.startsWith("mcp__") || /_mcp_resource/.test(t.function.name));
        offered[kind] = new Map(tools.map((t) => [t.function.name, JSON.stringify(Object.keys((t.function.parameters as { properties?: object }).properties ?? {}).sort())]));
      } finally {
        await stop(s);
      }
    }
    assert.ok(offered.host!.size > 5, `host offered ${offered.host!.size}`);
    assert.deepEqual([...offered.host!.keys()].sort(), [...offered["pi-1.5.2"]!.keys()].sort());
    for (const [name, params] of offered.host!) assert.equal(params, offered["pi-1.5.2"]!.get(name), name);
  });

  it("declares tool_search and writes the same mcp_servers section for a deferred server", async function () {
    const config = { mcpServers: { "docs-web": stdioServer({ exposure: "deferred", description: "Reference server: echo, sums, images" }) } };
    const seen: Record<string, { search: boolean; mcp: string[]; section: string | undefined }> = {};
    for (const kind of ["host", "pi-1.5.2"] as const) {
      const request = await firstRequest(kind, config);
      seen[kind] = { search: toolNames(request).includes("tool_search"), mcp: mcpTools(request), section: serversSectionOf(request) };
    }
    assert.deepEqual(seen.host, seen["pi-1.5.2"]);
    assert.equal(seen.host!.search, true);
    assert.deepEqual(seen.host!.mcp, []);
    assert.match(seen.host!.section ?? "", /- mcp__docs_web \(tool_search\): Reference server: echo, sums, images/);
  });

  it("declares the same codemode tool (name, description, parameters) and the same mcp_servers section for a codemode server", async function () {
    const config = { mcpServers: { "docs-web": stdioServer({ description: "Reference server: echo, sums, images" }) } };
    type Seen = { codemode: { description: string; parameters: unknown } | undefined; search: boolean; mcp: string[]; section: string | undefined; listed: boolean; rule: boolean };
    const seen: Record<string, Seen> = {};
    for (const kind of ["host", "pi-1.5.2"] as const) {
      const request = await firstRequest(kind, config);
      const system = systemText(request);
      const tool = request.body.tools?.find((t) => t.function.name === "codemode");
      seen[kind] = {
        // Pi also offers `models` (classifiers, image models), which this host does not: its line is left out.
        codemode: tool && { description: String(tool.function.description).replace(/\n- `models`: [^\n]*$/, ""), parameters: tool.function.parameters },
        search: toolNames(request).includes("tool_search"),
        mcp: mcpTools(request),
        section: serversSectionOf(request),
        listed: system.includes("- codemode: Run JavaScript that calls other tools"),
        rule: system.includes("- Use codemode to batch independent tool calls (Promise.allSettled), chain them, or filter large output, instead of many separate calls."),
      };
    }
    assert.ok(seen["pi-1.5.2"]!.codemode, "pi declares codemode");
    assert.deepEqual(seen.host, seen["pi-1.5.2"]);
    assert.equal(seen.host!.section, "MCP servers whose tools are not declared to you. Call the tools of `codemode` servers from codemode scripts.\n- mcp__docs_web (codemode): Reference server: echo, sums, images");
  });

  it("with codemode declared, direct MCP tools and edit/write say how a script calls them, in pi's words", async function () {
    const config = { mcpServers: { a: stdioServer({ exposure: "direct" }), b: stdioServer() } };
    const notes: Record<string, Map<string, string>> = {};
    for (const kind of ["host", "pi-1.5.2"] as const) {
      const request = await firstRequest(kind, config);
      // Pi's read and bash resolve to objects in scripts, ours to text; the resource tools too: those notes differ on purpose.
      const compared = (request.body.tools ?? []).filter((t) => t.function.name.startsWith("mcp__a__") || t.function.name === "edit" || t.function.name === "write");
      notes[kind] = new Map(compared.map((t) => [t.function.name, /\n\nCodemode: .*$/.exec(String(t.function.description))?.[0] ?? "(none)"]));
    }
    assert.ok(notes.host!.size > 5, `${notes.host!.size} tools compared`);
    assert.deepEqual([...notes.host!].sort(), [...notes["pi-1.5.2"]!].sort());
    assert.equal(notes.host!.get("mcp__a__get_structured_content"), "\n\nCodemode: `tools.mcp__a__get_structured_content(args)` resolves to `{ content, structuredContent?: { temperature, conditions, humidity }, isError? }`.");
  });

  it("store() values cross between pi 1.5.2 and our host through the session file (codemode-store entries), both ways", async function () {
    const config = { mcpServers: { everything: stdioServer() } };
    for (const [writer, reader] of [["pi-1.5.2", "host"], ["host", "pi-1.5.2"]] as const) {
      const cwd = mkdtempSync(join(tmpdir(), "mcp-store-"));
      const sessions = join(cwd, ".sessions");
      const w = await start(writer, config, { cwd, persistSession: true, extraArgs: ["--session-dir", sessions] });
      let file: string;
      try {
        w.llm.enqueue({ toolCalls: [{ id: "w", name: "codemode", arguments: { code: `store('from', ${JSON.stringify(writer)});\nstore('n', { list: [1, 2] });\nreturn 'stored';` } }] }, { text: "ok" });
        await run(w, "store");
        file = String(((await w.peer.client.request("get_state", {})) as { sessionFile?: string }).sessionFile);
      } finally {
        await stop(w);
      }
      const r = await start(reader, config, { cwd, persistSession: true, extraArgs: ["--session", file] });
      try {
        r.llm.enqueue({ toolCalls: [{ id: "r", name: "codemode", arguments: { code: "return [load('from'), load('n').list.length].join(',');" } }] }, { text: "ok" });
        await run(r, "load");
        assert.match(messageText(toolResultMessages(r.llm.requests[1]!).at(-1)!), new RegExp(`Script completed[\\s\\S]*${writer},2`), `${writer} → ${reader}`);
      } finally {
        await stop(r);
      }
    }
  });
});

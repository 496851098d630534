import { strict as assert } from "node:assert";
import { mcpToolName, mcpToolSelection, namePattern, toolExposure } from "./exposure";
import { rankTools } from "./tool-search";
import { serversSection } from "./system-section";
import { limitText, MAX_TEXT_CHARS } from "./tool-result";

describe("MCP tool names, exposure and selection", () => {
  it("names tools mcp__<server>__<tool>, sanitized; collisions and long names get a hash suffix", () => {
    assert.equal(mcpToolName("dev-radius", "get-sum"), "mcp__dev_radius__get_sum");
    const taken = new Set(["mcp__s__a_b"]);
    const second = mcpToolName("s", "a-b", (n) => taken.has(n));
    assert.match(second, /^mcp__s__a_b_[0-9a-f]{8}$/);
    const long = mcpToolName("server", "x".repeat(100));
    assert.equal(long.length, 64);
    assert.match(long, /_[0-9a-f]{8}$/);
    assert.match(mcpToolName("s", "naïve tool/ü"), /^[A-Za-z0-9_]+$/);
  });

  it("toolExposure: the exact name, then the first matching pattern, then the server's", () => {
    const server = { exposure: "deferred" as const, toolExposure: { search_code: "direct" as const, "get_*": "codemode" as const, "*": "hidden" as const, get_me: "direct" as const } };
    assert.equal(toolExposure(server, "search_code"), "direct");
    assert.equal(toolExposure(server, "get_me"), "direct");
    assert.equal(toolExposure(server, "get_issue"), "codemode");
    assert.equal(toolExposure(server, "delete_repo"), "hidden");
    assert.equal(toolExposure({ exposure: "direct", toolExposure: {} }, "x"), "direct");
  });

  it("patterns: * is the only wildcard; regex characters are literal", () => {
    assert.ok(namePattern("mcp__a.b__*").test("mcp__a.b__x"));
    assert.ok(!namePattern("mcp__a.b__*").test("mcp__aXb__x"));
    assert.ok(!namePattern("(a|b)").test("a"));
  });

  it("--tools filters MCP tools only with an mcp__ entry; --exclude-tools removes matches, tool_search included", () => {
    assert.ok(mcpToolSelection(["read", "bash"], [])("mcp__s__t"));
    const only = mcpToolSelection(["read", "mcp__radius__*"], []);
    assert.ok(only("mcp__radius__x") && !only("mcp__other__x") && only("tool_search"));
    const ex = mcpToolSelection(undefined, ["mcp__*", "tool_search"]);
    assert.ok(!ex("mcp__s__t") && !ex("tool_search"));
  });
});

describe("tool_search ranking", () => {
  const tool = (name: string, description: string, parameterText = "", serverText = "") => ({ name, description, parameterText, serverText });
  const tools = [
    tool("mcp__gh__search_code", "Search code in repositories", "query"),
    tool("mcp__gh__get_issue", "Get an issue by number", "number"),
    tool("mcp__gh__list_issues", "List the issues of a repository", "state"),
    tool("mcp__fs__read_file", "Read a file", "path", "fs local files"),
  ];
  it("ranks name matches first, finds by description, plural or singular, an exact name first of all", () => {
    assert.deepEqual(rankTools("issues", tools, 8).map((t) => t.name).sort(), ["mcp__gh__get_issue", "mcp__gh__list_issues"]);
    assert.deepEqual(rankTools("get_issue", tools, 1).map((t) => t.name), ["mcp__gh__get_issue"]);
    assert.equal(rankTools("search repositories code", tools, 1)[0]!.name, "mcp__gh__search_code");
    assert.deepEqual(rankTools("the of a", tools, 8), [], "stop words alone match nothing");
    assert.equal(rankTools("file", tools, 8).length, 1);
  });
});

describe("the mcp_servers section and long results", () => {
  it("lists servers with indirect tools, sorted, with a one-line summary; none when all are direct", () => {
    assert.equal(serversSection([{ name: "d", exposures: ["direct"], summary: "x" }]), undefined);
    const text = serversSection([{ name: "z-srv", exposures: ["deferred"], summary: "Zed\nmore" }, { name: "a", exposures: ["direct", "codemode"], summary: undefined }])!;
    assert.equal(text, "MCP servers whose tools are not declared to you. Call the tools of `codemode` servers from codemode scripts. Load the tools of `tool_search` servers with `tool_search`.\n- mcp__a (codemode)\n- mcp__z_srv (tool_search): Zed");
    // Without the codemode tool (--exclude-tools codemode), codemode servers are reached through tool_search.
    const without = serversSection([{ name: "a", exposures: ["codemode"], summary: undefined }], false)!;
    assert.equal(without, "MCP servers whose tools are not declared to you. Load the tools of `tool_search` servers with `tool_search`.\n- mcp__a (tool_search)");
  });

  it("stays within 4096 characters with 500 servers of long descriptions", () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ name: `server${i}`, exposures: ["deferred" as const], summary: "d".repeat(1000) }));
    const text = serversSection(many)!;
    assert.ok(text.length <= 4096, String(text.length));
    assert.match(text, /more servers; find their tools with searchTools\(\)$/);
  });

  it("cuts the middle of a text over 20 KB, and says where the whole text is", () => {
    const text = "a".repeat(MAX_TEXT_CHARS) + "MIDDLE" + "z".repeat(MAX_TEXT_CHARS);
    const cut = limitText(text, () => "/tmp/full.txt");
    assert.ok(cut.length < MAX_TEXT_CHARS + 200);
    assert.ok(cut.startsWith("aaa") && cut.endsWith("zzz") && !cut.includes("MIDDLE"));
    assert.match(cut, /…20486 chars truncated… \(full text: \/tmp\/full\.txt\)/);
    assert.equal(limitText("short"), "short");
  });
});

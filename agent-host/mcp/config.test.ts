/**
 * mcp.json as Pi reads it: the user's file, a trusted project's over it, the override rule, the
 * naming rules, and hostile or broken files (every problem reported, only its entry skipped).
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadMcpConfig } from "./config";

describe("mcp.json", () => {
  let root: string;
  let agentDir: string;
  let cwd: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "mcp-config-"));
    agentDir = join(root, "agent");
    cwd = join(root, "project");
    mkdirSync(agentDir);
    mkdirSync(join(cwd, ".pi"), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const user = (value: unknown) => writeFileSync(join(agentDir, "mcp.json"), typeof value === "string" ? value : JSON.stringify(value));
  const project = (value: unknown) => writeFileSync(join(cwd, ".pi", "mcp.json"), typeof value === "string" ? value : JSON.stringify(value));
  const load = (trusted = true, env: NodeJS.ProcessEnv = {}) => loadMcpConfig(agentDir, cwd, trusted, env);

  it("reads stdio and HTTP servers with their defaults", () => {
    user({ mcpServers: { fs: { command: "npx", args: ["-y", "srv", "~/x"], cwd: "sub" }, docs: { url: "https://example.com/mcp", timeout: 5, description: "Docs" } } });
    const { servers, problems } = load();
    assert.deepEqual(problems, []);
    const [fs, docs] = servers;
    assert.equal(fs!.transport, "stdio");
    assert.equal(fs!.cwd, join(cwd, "sub"));
    assert.ok(!fs!.args[2]!.startsWith("~"));
    assert.equal(fs!.exposure, "codemode");
    assert.equal(fs!.timeoutMs, 60_000);
    assert.equal(docs!.transport, "http");
    assert.equal(docs!.timeoutMs, 5000);
    assert.equal(docs!.description, "Docs");
  });

  it("a project file is read only when trusted; its entry replaces the user's, or only overrides enabled/exposure/toolExposure", () => {
    user({ mcpServers: { a: { command: "a", env: { K: "v" } }, b: { command: "b" } } });
    project({ mcpServers: { a: { enabled: false, exposure: "direct", env: { K: "project" } }, b: { command: "project-b" }, c: { command: "c" } } });
    assert.deepEqual(load(false).servers.map((s) => [s.name, s.command, s.source]), [["a", "a", "user"], ["b", "b", "user"]]);
    const { servers, problems } = load(true);
    const a = servers.find((s) => s.name === "a")!;
    // env in an override is not one of the three keys: the user's env stays.
    assert.deepEqual([a.command, a.enabled, a.exposure, a.env, a.source], ["a", false, "direct", { K: "v" }, "project"]);
    assert.equal(servers.find((s) => s.name === "b")!.command, "project-b");
    assert.ok(servers.some((s) => s.name === "c"));
    assert.deepEqual(problems, []);
  });

  it("a project override of a server the user does not have is skipped with a reason", () => {
    project({ mcpServers: { ghost: { enabled: true } } });
    const { servers, problems } = load(true);
    assert.deepEqual(servers, []);
    assert.match(problems.join("\n"), /"ghost" skipped: an HTTP server needs `url`/);
  });

  it("expands ${VAR} in env and headers; refuses !command values", () => {
    user({ mcpServers: { h: { url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer ${TOKEN}", X: "${UNSET}" } }, s: { command: "x", env: { A: "!gh auth token" } } } });
    const { servers, problems } = load(true, { TOKEN: "t0k" });
    assert.deepEqual(servers.map((s) => s.name), ["h"]);
    assert.deepEqual(servers[0]!.headers, { Authorization: "Bearer t0k", X: "" });
    assert.match(problems.join("\n"), /"s" skipped: env A: `!command` values are not supported/);
  });

  it("rejects bad names, sse, unknown types, both command and url, a url that is not http(s), namespaces that collide", () => {
    user({ mcpServers: {
      "bad name": { command: "x" }, "my-srv": { command: "x" }, my_srv: { command: "y" }, old: { type: "sse", url: "http://h/sse" },
      odd: { type: "ws", url: "ws://h" }, both: { command: "x", url: "http://h/mcp" }, file: { url: "file:///etc/passwd" },
    } });
    const { servers, problems } = load();
    assert.deepEqual(servers.map((s) => s.name), ["my-srv"]);
    const text = problems.join("\n");
    for (const needle of [/"bad name" skipped: server names/, /"my_srv" skipped: another server's name differs/, /"old" skipped: the SSE transport/, /"odd" skipped: type must be/, /"both" skipped: give either/, /"file" skipped: url must be http/]) assert.match(text, needle);
  });

  it("hostile or broken files: forbidden keys, wrong types, unknown keys, bad JSON are dropped with notices, never thrown", () => {
    user('{"mcpServers": {"a": {"command": "a", "__proto__": {"polluted": true}, "args": "not-an-array", "bogus": 1, "exposure": "everywhere"}}, "servers": {}}');
    const { servers, problems } = load();
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(servers.length, 1);
    assert.deepEqual(servers[0]!.args, []);
    assert.equal(servers[0]!.exposure, "codemode");
    assert.ok(problems.length >= 3, problems.join("\n"));
    user("{ not json");
    const broken = load();
    assert.deepEqual(broken.servers, []);
    assert.equal(broken.problems.length, 1);
  });
  it("oauth: read for an HTTP server without an Authorization header; the secret's ${VAR} expanded; a callbackUrl off loopback refused", () => {
    user({
      mcpServers: {
        plain: { url: "https://a.example/mcp" },
        keyed: { url: "https://b.example/mcp", headers: { authorization: "Bearer x" }, oauth: { clientId: "c" } },
        registered: { url: "https://c.example/mcp", oauth: { clientId: "my-client", clientSecret: "${SECRET}", callbackPort: 8765, scope: "read write", clientName: "Claude Code" } },
        remote: { url: "https://d.example/mcp", oauth: { callbackUrl: "http://attacker.example/callback" } },
        run: { url: "https://e.example/mcp", oauth: { clientSecret: "!cat /etc/passwd" } },
        local: { command: "srv", oauth: { clientId: "x" } },
      },
    });
    const { servers, problems } = load(true, { SECRET: "s3" });
    const byName = new Map(servers.map((s) => [s.name, s]));
    assert.deepEqual(byName.get("plain")!.oauth, {});
    assert.equal(byName.get("keyed")!.oauth, undefined, "an Authorization header turns OAuth off");
    assert.deepEqual(byName.get("registered")!.oauth, { clientId: "my-client", clientSecret: "s3", callbackPort: 8765, scope: "read write", clientName: "Claude Code" });
    assert.equal(byName.get("local")!.oauth, undefined, "stdio servers have no OAuth");
    assert.ok(!byName.has("remote") && !byName.has("run"));
    assert.ok(problems.some((p) => /"remote" skipped: oauth.callbackUrl must use http on localhost/.test(p)), problems.join("\n"));
    assert.ok(problems.some((p) => /"run" skipped: oauth.clientSecret: `!command`/.test(p)), problems.join("\n"));
  });
});

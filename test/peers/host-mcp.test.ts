/**
 * MCP servers in our host, end to end with a real third-party server nobody here wrote (the
 * reference `@modelcontextprotocol/server-everything`, test/peers/mcp-server-everything), over
 * stdio and over streamable HTTP on loopback, driven through the RPC with the scripted LLM: the
 * tools the model is offered, a call and its result in the model's next request, tool_search for
 * deferred tools, --no-mcp, --exclude-tools patterns, the trust rule for a project's .pi/mcp.json,
 * failing servers. (pi 1.5.2 beside our host on the same mcp.json: mcp-parity.test.ts.)
 */
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messageText, toolNames, toolResultMessages } from "../support/mock-llm";
import { alive, gone } from "../reliability/raw-host";

import { EVERYTHING, NODE22, mcpTools, notices, run, start, startHttpServer, stdioServer, stop, systemText, type Started } from "./mcp-support";

describe("MCP servers in the agent host (server-everything, stdio and streamable HTTP)", function () {
  this.timeout(120_000);
  let s: Started | undefined;
  afterEach(async () => {
    await stop(s);
    s = undefined;
  });

  it("stdio, direct: the model is offered the server's tools, calls one, and reads its result in the next request", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct" }) } });
    s.llm.enqueue({ toolCalls: [{ id: "sum1", name: "mcp__everything__get_sum", arguments: { a: 2, b: 40 } }] }, { text: "done" });
    await run(s, "add 2 and 40");
    const [first, second] = s.llm.requests;
    assert.ok(first && second, "two model requests");
    const offered = mcpTools(first);
    for (const name of ["mcp__everything__echo", "mcp__everything__get_sum", "mcp__everything__get_tiny_image"]) assert.ok(offered.includes(name), `${name} offered: ${offered.join(",")}`);
    assert.ok(!toolNames(first).includes("tool_search"), "no tool_search when every tool is direct");
    const sum = first.body.tools!.find((t) => t.function.name === "mcp__everything__get_sum");
    assert.deepEqual(Object.keys((sum!.function.parameters as { properties: object }).properties).sort(), ["a", "b"]);
    const [result] = toolResultMessages(second);
    assert.match(messageText(result!), /42/);
    const end = s.peer.received.find((f) => f.type === "tool_execution_end" && f.toolCallId === "sum1");
    assert.equal(end?.isError, false);
  });

  it("streamable HTTP, deferred: tool_search finds the tool, declares it for the next call, and the call goes through", async function () {
    const http = await startHttpServer();
    try {
      s = await start("host", { mcpServers: { web: { url: http.url, exposure: "deferred", description: "The reference server, everything in one" } } });
      s.llm.enqueue(
        { toolCalls: [{ id: "search1", name: "tool_search", arguments: { query: "echo message" } }] },
        { toolCalls: [{ id: "echo1", name: "mcp__web__echo", arguments: { message: "over http" } }] },
        { text: "done" },
      );
      await run(s, "echo something");
      const [first, second, third] = s.llm.requests;
      assert.ok(first && second && third, `three model requests, got ${s.llm.requests.length}`);
      assert.deepEqual(mcpTools(first), [], "deferred tools are not declared up front");
      assert.ok(toolNames(first).includes("tool_search"));
      assert.match(systemText(first), /MCP servers whose tools are not declared to you\.[^\n]*\n- mcp__web \(tool_search\): The reference server, everything in one/);
      assert.match(messageText(toolResultMessages(second)[0]!), /mcp__web__echo/);
      assert.ok(mcpTools(second).includes("mcp__web__echo"), `loaded: ${mcpTools(second).join(",")}`);
      assert.match(messageText(toolResultMessages(third).at(-1)!), /Echo: over http/);
    } finally {
      http.child.kill();
    }
  });

  it("resources: list_mcp_resources and read_mcp_resource reach the server's resources (read-only, declared with a direct server)", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct" }) } }, { extraArgs: ["--confirm-tools", "bash,edit,write", "--permission-mode", "plan"] });
    s.llm.enqueue(
      { toolCalls: [{ id: "list", name: "list_mcp_resources", arguments: { server: "everything" } }] },
      (request) => {
        const listed = JSON.parse(messageText(toolResultMessages(request)[0]!)) as { resources: { uri: string; mimeType?: string; server: string }[] };
        const text = listed.resources.find((r) => (r.mimeType ?? "").startsWith("text/")) ?? listed.resources[0]!;
        return { toolCalls: [{ id: "read", name: "read_mcp_resource", arguments: { server: text.server, uri: text.uri } }] };
      },
      { text: "done" },
    );
    await run(s, "what resources are there?");
    const [first, second, third] = s.llm.requests;
    for (const name of ["list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"]) assert.ok(toolNames(first!).includes(name), name);
    const listed = JSON.parse(messageText(toolResultMessages(second!)[0]!)) as { server: string; resources: { server: string; uri: string }[] };
    assert.equal(listed.server, "everything");
    assert.ok(listed.resources.length > 0 && listed.resources.every((r) => r.server === "everything" && !r.uri.startsWith("ui://")));
    const read = s.peer.received.find((f) => f.type === "tool_execution_end" && f.toolCallId === "read");
    assert.equal(read?.isError, false, JSON.stringify(read?.result).slice(0, 300));
    assert.ok(messageText(toolResultMessages(third!).at(-1)!).length > 0);
  });

  it("streamable HTTP: configured headers (with ${VAR}) reach the server on every request", async function () {
    const http = await startHttpServer();
    const seen: string[] = [];
    // A loopback relay in front of the server that records the header, then forwards the request as it came.
    const target = new URL(http.url);
    const relay = createHttpServer((req, res) => {
      seen.push(String(req.headers["x-team-token"]));
      const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const port = (relay.address() as { port: number }).port;
    try {
      s = await start("host", { mcpServers: { web: { url: `http://127.0.0.1:${port}/mcp`, exposure: "direct", headers: { "X-Team-Token": "team-${MCP_TEST_TEAM}" } } } }, { env: { MCP_TEST_TEAM: "t42" } });
      s.llm.enqueue({ toolCalls: [{ id: "e", name: "mcp__web__echo", arguments: { message: "with headers" } }] }, { text: "done" });
      await run(s, "echo");
      assert.match(messageText(toolResultMessages(s.llm.requests[1]!)[0]!), /Echo: with headers/);
      assert.ok(seen.length >= 3, `${seen.length} requests`);
      assert.deepEqual([...new Set(seen)], ["team-t42"]);
    } finally {
      relay.closeAllConnections();
      relay.close();
      http.child.kill();
    }
  });

  it("--no-mcp: no server starts, no MCP tool and no tool_search", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct" }), other: stdioServer({ exposure: "deferred" }) } }, { extraArgs: ["--no-mcp"] });
    await run(s, "hi");
    const [first] = s.llm.requests;
    assert.deepEqual(mcpTools(first!), []);
    assert.ok(!toolNames(first!).includes("tool_search"));
    assert.doesNotMatch(systemText(first!), /mcp_servers|MCP servers/);
    assert.deepEqual((await s.peer.client.request("get_mcp_servers", {})).servers, []);
  });

  it("--exclude-tools and --tools take mcp__ patterns", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct" }) } }, { extraArgs: ["--exclude-tools", "mcp__everything__get_*"] });
    await run(s, "hi");
    const offered = mcpTools(s.llm.requests[0]!);
    assert.ok(offered.includes("mcp__everything__echo"), offered.join(","));
    assert.ok(!offered.some((n) => n.startsWith("mcp__everything__get_")), offered.join(","));
    await stop(s);
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct" }) } }, { extraArgs: ["--tools", "read,mcp__everything__echo"] });
    await run(s, "hi");
    assert.deepEqual(toolNames(s.llm.requests[0]!).sort(), ["mcp__everything__echo", "read"]);
  });

  it("toolExposure: hidden and direct per tool over the server's exposure", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "hidden", toolExposure: { echo: "direct", "get-*": "direct", "get-env": "hidden" } }) } });
    await run(s, "hi");
    const offered = mcpTools(s.llm.requests[0]!);
    assert.ok(offered.includes("mcp__everything__echo") && offered.includes("mcp__everything__get_sum"), offered.join(","));
    assert.ok(!offered.includes("mcp__everything__get_env"), "the exact name wins over the pattern");
    assert.ok(!offered.includes("mcp__everything__trigger_long_running_operation"), "the server's hidden exposure holds for the rest");
  });

  it("annotations: in plan mode the server's read-only tool runs, one without the hint is refused", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct" }) } }, { extraArgs: ["--confirm-tools", "bash,edit,write", "--permission-mode", "plan"] });
    s.llm.enqueue({ toolCalls: [{ id: "ro", name: "mcp__everything__echo", arguments: { message: "read only" } }, { id: "rw", name: "mcp__everything__toggle_simulated_logging", arguments: {} }] }, { text: "done" });
    await run(s, "try both");
    const results = toolResultMessages(s.llm.requests[1]!);
    assert.match(messageText(results.find((m) => m.tool_call_id === "ro")!), /Echo: read only/);
    assert.match(messageText(results.find((m) => m.tool_call_id === "rw")!), /Plan mode/);
  });

  it("--sandbox: a stdio server starts inside the sandbox (a write outside the workspace fails there, works without)", async function () {
    const outside = mkdtempSync(join(tmpdir(), "mcp-outside-"));
    const marker = join(outside, "written-by-server");
    // A shell that first tries to write outside the workspace, then runs the real server.
    const wrapped = { command: "/bin/sh", args: ["-c", `echo x > '${marker}' 2>/dev/null; exec '${NODE22}' '${EVERYTHING}' stdio`], exposure: "direct" };
    try {
      for (const sandboxed of [false, true]) {
        rmSync(marker, { force: true });
        s = await start("host", { mcpServers: { boxed: wrapped } }, { extraArgs: sandboxed ? ["--sandbox", "workspace-write"] : [] });
        s.llm.enqueue({ toolCalls: [{ id: "e", name: "mcp__boxed__echo", arguments: { message: "inside" } }] }, { text: "done" });
        await run(s, "echo");
        assert.match(messageText(toolResultMessages(s.llm.requests[1]!)[0]!), /Echo: inside/, `sandboxed=${sandboxed}: the server works`);
        assert.equal(existsSync(marker), !sandboxed, sandboxed ? "the sandboxed server could not write outside the workspace" : "control: it can without --sandbox");
        await stop(s);
        s = undefined;
      }
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("a key the editor keeps out of the host's environment reaches no MCP server, not even through ${VAR} in mcp.json", async function () {
    const key = "sk-mcp-leak-test-0123456789";
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct", env: { LEAK: "${OPENAI_API_KEY}", KEPT: "${MCP_TEST_PLAIN}" } }) } }, {
      env: { PI_SECRET_ENV: "OPENAI_API_KEY", OPENAI_API_KEY: key, MCP_TEST_PLAIN: "plain-value" },
    });
    s.llm.enqueue({ toolCalls: [{ id: "env", name: "mcp__everything__get_env", arguments: {} }] }, { text: "done" });
    await run(s, "show env");
    const text = messageText(toolResultMessages(s.llm.requests[1]!)[0]!);
    assert.match(text, /plain-value/, "the server's environment is in the result");
    assert.ok(!text.includes(key), "the kept key is not");
  });

  it("a stdio server that ignores the end of its input is stopped when the host ends", async function () {
    const dir = mkdtempSync(join(tmpdir(), "mcp-stubborn-"));
    const pidFile = join(dir, "pid");
    // The shell stays after the server ends on EOF: only a signal stops it.
    const stubborn = { command: "/bin/sh", args: ["-c", `echo $$ > '${pidFile}'; '${NODE22}' '${EVERYTHING}' stdio; trap '' HUP; sleep 30`], exposure: "direct" };
    try {
      s = await start("host", { mcpServers: { stubborn } });
      await run(s, "hi");
      assert.ok(mcpTools(s.llm.requests[0]!).includes("mcp__stubborn__echo"));
      const pid = Number(readFileSync(pidFile, "utf8"));
      assert.ok(alive(pid));
      await stop(s);
      s = undefined;
      assert.ok(await gone(pid), `the server's process ${pid} outlived the host`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a call is cut by the server's timeout, and by an abort, as built-in tools are", async function () {
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct", timeout: 1 }) } });
    s.llm.enqueue({ toolCalls: [{ id: "slow", name: "mcp__everything__trigger_long_running_operation", arguments: { duration: 20, steps: 4 } }] }, { text: "done" });
    let t0 = performance.now();
    await run(s, "run it");
    assert.ok(performance.now() - t0 < 8000, "the timeout ended the call");
    assert.match(messageText(toolResultMessages(s.llm.requests[1]!)[0]!), /timed out/i);
    await stop(s);
    s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct" }) } });
    s.llm.enqueue({ toolCalls: [{ id: "slow2", name: "mcp__everything__trigger_long_running_operation", arguments: { duration: 20, steps: 4 } }] }, { text: "done" });
    const settled = s.peer.client.waitForSettled(30_000);
    await s.peer.client.request("prompt", { message: "run it" });
    await s.peer.waitForFrame((f) => f.type === "tool_execution_start" && f.toolCallId === "slow2", 0, 20_000);
    t0 = performance.now();
    await s.peer.client.request("abort", {}, { timeoutMs: 10_000 });
    await settled;
    assert.ok(performance.now() - t0 < 5000, `the abort took ${(performance.now() - t0).toFixed(0)} ms`);
    const end = s.peer.received.find((f) => f.type === "tool_execution_end" && f.toolCallId === "slow2");
    assert.equal(end?.isError, true);
  });

  it("a server that dies is reported; the next call starts it again and goes through", async function () {
    const dir = mkdtempSync(join(tmpdir(), "mcp-dies-"));
    const pidFile = join(dir, "pid");
    const server = { command: "/bin/sh", args: ["-c", `echo $$ > '${pidFile}'; exec '${NODE22}' '${EVERYTHING}' stdio`], exposure: "direct" };
    try {
      s = await start("host", { mcpServers: { mortal: server } });
      await run(s, "hi");
      const first = Number(readFileSync(pidFile, "utf8"));
      process.kill(first, "SIGKILL");
      await s.peer.waitForFrame((f) => f.type === "extension_ui_request" && /MCP server mortal failed: the server closed the connection/.test(String(f.message)), 0, 10_000);
      const { servers } = await s.peer.client.request("get_mcp_servers", {});
      assert.equal(servers[0]!.state, "failed");
      s.llm.enqueue({ toolCalls: [{ id: "again", name: "mcp__mortal__echo", arguments: { message: "back" } }] }, { text: "done" });
      await run(s, "again");
      assert.match(messageText(toolResultMessages(s.llm.requests.at(-1)!)[0]!), /Echo: back/);
      assert.notEqual(Number(readFileSync(pidFile, "utf8")), first, "a new server process");
      assert.equal((await s.peer.client.request("get_mcp_servers", {})).servers[0]!.state, "connected");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a project's .pi/mcp.json is read only when the project is trusted", async function () {
    const cwd = mkdtempSync(join(tmpdir(), "mcp-project-"));
    mkdirSync(join(cwd, ".pi"));
    writeFileSync(join(cwd, ".pi", "mcp.json"), JSON.stringify({ mcpServers: { project: stdioServer({ exposure: "direct" }) } }));
    try {
      s = await start("host", undefined, { cwd, extraArgs: ["--no-approve"] });
      await run(s, "hi");
      assert.deepEqual(mcpTools(s.llm.requests[0]!), [], "untrusted: the project's server is not started");
      await stop(s);
      s = await start("host", undefined, { cwd, extraArgs: ["--approve"] });
      await run(s, "hi");
      assert.ok(mcpTools(s.llm.requests[0]!).includes("mcp__project__echo"), "trusted: it is");
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("a project entry without command or url only turns a user server off or changes its exposure", async function () {
    const cwd = mkdtempSync(join(tmpdir(), "mcp-override-"));
    mkdirSync(join(cwd, ".pi"));
    writeFileSync(join(cwd, ".pi", "mcp.json"), JSON.stringify({ mcpServers: { everything: { enabled: false }, second: { exposure: "direct", toolExposure: { "*": "direct" } } } }));
    try {
      s = await start("host", { mcpServers: { everything: stdioServer({ exposure: "direct" }), second: stdioServer({ exposure: "hidden" }) } }, { cwd, extraArgs: ["--approve"] });
      await run(s, "hi");
      const offered = mcpTools(s.llm.requests[0]!);
      assert.ok(!offered.some((n) => n.startsWith("mcp__everything__")), "disabled by the project");
      assert.ok(offered.includes("mcp__second__echo"), "the user's command kept, the project's exposure applied");
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("a server that fails or never answers is reported and does not hold up the prompt or the others", async function () {
    const hang = join(mkdtempSync(join(tmpdir(), "mcp-hang-")), "hang.js");
    const pidFile = `${hang}.pid`;
    writeFileSync(hang, `require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);\n`);
    s = await start("host", {
      mcpServers: {
        broken: { command: join(tmpdir(), "no-such-mcp-server"), exposure: "direct" },
        crashing: { command: NODE22, args: ["-e", "process.stderr.write('boom: no config'); process.exit(3)"], exposure: "direct" },
        silent: { command: NODE22, args: [hang], exposure: "deferred", timeout: 0.5 },
        everything: stdioServer({ exposure: "direct" }),
      },
    });
    const t0 = performance.now();
    await run(s, "hi");
    const seconds = (performance.now() - t0) / 1000;
    assert.ok(seconds < 8, `the prompt took ${seconds.toFixed(1)} s`);
    assert.ok(mcpTools(s.llm.requests[0]!).includes("mcp__everything__echo"), "the working server's tools are there");
    const told = notices(s.peer.received).join("\n");
    assert.match(told, /MCP server broken failed/);
    assert.match(told, /MCP server crashing failed[\s\S]*boom: no config/);
    // The status the client can ask for (the editor's MCP view).
    await s.peer.waitForFrame((f) => f.type === "extension_ui_request" && String(f.message).includes("MCP server silent failed"), 0, 10_000);
    const { servers } = await s.peer.client.request("get_mcp_servers", {});
    const byName = new Map(servers.map((server) => [server.name, server]));
    assert.deepEqual([...byName.keys()].sort(), ["broken", "crashing", "everything", "silent"]);
    assert.equal(byName.get("everything")!.state, "connected");
    assert.ok(byName.get("everything")!.tools > 5);
    for (const name of ["broken", "crashing", "silent"]) assert.equal(byName.get(name)!.state, "failed", name);
    assert.match(byName.get("crashing")!.error!, /boom: no config/);
    assert.equal(byName.get("everything")!.source, "user");
    // The server that never answered was stopped, not left running.
    const pid = Number(readFileSync(pidFile, "utf8"));
    assert.ok(await gone(pid), `the silent server (pid ${pid}) still runs`);
  });
});

// Workspace trust and paths at the host: with --workspace-only (what the editor passes), read,
// write, edit, ls, find and grep refuse every path that resolves outside the working directory
// (absolute, `..`, `~`, file://, through a symlink, a dangling symlink, a spelling variant read
// falls back to) with a tool error, and touch nothing there;
// paths inside still work. Without the flag the same outside read succeeds: the policy refuses.
// And the workspace's own .pi/extensions/ never loads unless the host is told to trust it
// (--approve, which the editor passes only in a trusted workspace).
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { startMockLlm, type JsonObject, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";

const tools = "read,write,edit,ls,find,grep";

describe("agent host: workspace paths (--workspace-only) and project trust (--approve)", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let root: string;
  let launch: PeerLaunch;
  let outsideFile: string;
  before(async () => {
    llm = await startMockLlm();
    root = mkdtempSync(join(tmpdir(), "paths-"));
    const cwd = join(root, "workspace");
    mkdirSync(join(cwd, "src"), { recursive: true });
    writeFileSync(join(cwd, "src", "inside.txt"), "inside text\n");
    mkdirSync(join(root, "outside"));
    outsideFile = join(root, "outside", "secret.txt");
    writeFileSync(outsideFile, "outside secret\n");
    symlinkSync(join(root, "outside"), join(cwd, "link-out"));
    // A dangling link: writing through it would create its target outside.
    symlinkSync(join(root, "outside", "created-by-write.txt"), join(cwd, "dangling"));
    symlinkSync(join(root, "outside", "missing-dir", "deep.txt"), join(cwd, "dangling-deep"));
    // The curly-apostrophe spelling of "it's.txt" (read's fallback for macOS names) links outside.
    symlinkSync(outsideFile, join(cwd, "it\u2019s.txt"));
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl, cwd, env: { HOME: join(root, "outside") } });
  });
  after(async () => {
    await llm.close();
    launch.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  async function callTools(extraArgs: string[], calls: { name: string; arguments: JsonObject }[]) {
    const transport = ProcessTransport.spawn(launch.command, [...launch.args, "--tools", tools, ...extraArgs], { env: launch.env, cwd: launch.cwd });
    const client = new RpcClient(transport);
    const ends: { id: string; name: string; isError: boolean; text: string }[] = [];
    client.on("tool_execution_end", (e) => ends.push({ id: e.toolCallId, name: e.toolName, isError: e.isError, text: JSON.stringify(e.result) }));
    await client.request("set_auto_retry", { enabled: false });
    llm.enqueue({ toolCalls: calls.map((c, i) => ({ id: `c${i}`, ...c })) }, { text: "done" });
    const settled = client.waitForSettled(); // before asking: a short run may settle before the answer is handled
    await client.request("prompt", { message: "use the tools" });
    await settled;
    await transport.stop();
    client.dispose();
    // Tools run in parallel: put the results back in the order of the calls.
    return ends.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
  }

  it("refuses every outside path with a tool error and changes nothing there", async () => {
    const outside = [join(root, "outside", "secret.txt"), "../outside/secret.txt", "src/../../outside/secret.txt", "link-out/secret.txt", "~/secret.txt", `file://${outsideFile}`, "dangling", "dangling-deep"];
    const outsideDirs = [join(root, "outside"), "..", "link-out", "~"];
    const calls = [
      ...outside.map((path) => ({ name: "read", arguments: { path } })),
      { name: "read", arguments: { path: "it's.txt" } },
      ...outside.map((path) => ({ name: "write", arguments: { path, content: "overwritten" } })),
      ...outside.map((path) => ({ name: "edit", arguments: { path, edits: [{ oldText: "outside", newText: "edited" }] } })),
      ...outsideDirs.map((path) => ({ name: "ls", arguments: { path } })),
      ...outsideDirs.map((path) => ({ name: "find", arguments: { pattern: "*.txt", path } })),
      ...outsideDirs.map((path) => ({ name: "grep", arguments: { pattern: "secret", path } })),
    ];
    const inside = [
      { name: "read", arguments: { path: "src/inside.txt" } },
      { name: "ls", arguments: { path: "src" } },
      { name: "grep", arguments: { pattern: "inside", path: "." } },
      { name: "write", arguments: { path: "src/new.txt", content: "new" } },
    ];
    const ends = await callTools(["--workspace-only"], [...calls, ...inside]);
    assert.equal(ends.length, calls.length + inside.length);
    const refused = ends.slice(0, calls.length);
    const violations = refused.filter((e) => !e.isError || !e.text.includes("outside the workspace")).length;
    const leaked = refused.filter((e) => e.text.includes("outside secret")).length;
    assert.equal(readFileSync(outsideFile, "utf8"), "outside secret\n", "the outside file is untouched");
    const created = ["created-by-write.txt", "missing-dir"].filter((name) => existsSync(join(root, "outside", name))).length;
    const insideOk = ends.slice(calls.length).filter((e) => !e.isError).length;
    console.log(`      figures: cases ${calls.length + inside.length} (${calls.length} outside, ${inside.length} inside), refused ${refused.length - violations}, violations ${violations + leaked + created}, inside calls that worked ${insideOk}`);
    assert.equal(violations + leaked + created, 0);
    assert.equal(insideOk, inside.length);
  });

  it("reads the same outside file without the flag: the refusal is the policy's", async () => {
    const [end] = await callTools([], [{ name: "read", arguments: { path: "../outside/secret.txt" } }]);
    assert.equal(end?.isError, false);
    assert.match(end?.text ?? "", /outside secret/);
  });

  it("loads the workspace's .pi/extensions/ only with --approve", async () => {
    const marker = join(root, "project-extension-loaded");
    mkdirSync(join(launch.cwd, ".pi", "extensions"), { recursive: true });
    writeFileSync(join(launch.cwd, ".pi", "extensions", "project.ts"), `import { writeFileSync } from "node:fs";\nexport default function () { writeFileSync(${JSON.stringify(marker)}, "loaded"); }\n`);
    const start = async (args: string[]) => {
      const transport = ProcessTransport.spawn(launch.command, [...launch.args, ...args], { env: launch.env, cwd: launch.cwd });
      const client = new RpcClient(transport);
      await client.request("get_state", {});
      await transport.stop();
      client.dispose();
      return existsSync(marker);
    };
    const untrusted = await start(["--workspace-only"]);
    const trusted = await start(["--workspace-only", "--approve"]);
    console.log(`      figures: project extension loaded untrusted ${untrusted ? 1 : 0} (must be 0), trusted ${trusted ? 1 : 0}`);
    assert.equal(untrusted, false);
    assert.equal(trusted, true, "the same extension loads once trusted: the check above is meaningful");
  });
});

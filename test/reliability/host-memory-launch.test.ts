// The bundled host as the editor launches it (extension/supervision/agent-command.ts with
// host-memory.ts): V8's young generation capped and glibc's malloc tuned for less memory per
// session (issue 31), the host starting and answering with them, and the processes it starts
// (a user's `!command`, the bash tool) running with glibc's defaults: the variable never reaches them.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { HOST_MALLOC_TUNABLES, HOST_NODE_FLAGS, MALLOC_TUNABLES_ENV } from "../../extension/supervision/host-memory";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";

const root = resolve(__dirname, "../..");
const stub = join(root, "test/support/vscode-stub.cjs");

/** resolveAgentLaunch's launch of the bundled host, computed in a child with a stand-in `vscode` (default settings). */
function editorLaunch(env: NodeJS.ProcessEnv): { command: string; args: string[]; env: Record<string, string> } {
  const child = `
    const Module = require("node:module");
    const stub = require(${JSON.stringify(stub)});
    const load = Module._load;
    Module._load = function (request, ...rest) { return request === "vscode" ? stub : load.call(this, request, ...rest); };
    const { resolveAgentLaunch } = require(${JSON.stringify(join(root, "extension/supervision/agent-command.ts"))});
    const launch = resolveAgentLaunch(${JSON.stringify(root)}, process.cwd(), { gatewayEnv: {} });
    process.stdout.write(JSON.stringify({ command: launch.command, args: launch.args, env: launch.env }));`;
  const run = spawnSync(process.execPath, ["--import", "tsx", "-e", child], { env, encoding: "utf8", timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { command: string; args: string[]; env: Record<string, string> };
}

describe("agent host: launched by the editor with less memory per session", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let peer: PeerLaunch;
  before(async () => {
    llm = await startMockLlm();
    peer = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
  });
  after(async () => {
    await llm.close();
    peer.cleanup();
  });

  it("runs the host with the young generation capped and malloc tuned; nothing it starts inherits the malloc settings", async () => {
    const { [MALLOC_TUNABLES_ENV]: _theirs, ...inherited } = process.env;
    const launch = editorLaunch(inherited);
    const host = launch.args.findIndex((arg) => arg.endsWith(join("dist", "agent-host.js")));
    assert.deepEqual(launch.args.slice(0, host), [...HOST_NODE_FLAGS], "Node's options come before the host's script");
    assert.equal(launch.env[MALLOC_TUNABLES_ENV], HOST_MALLOC_TUNABLES);
    assert.ok(launch.env.PI_SECRET_ENV?.split(",").includes(MALLOC_TUNABLES_ENV), `named for the host only: ${launch.env.PI_SECRET_ENV}`);

    // The real host with that command line and environment (the peer's agent dir and scripted model).
    // (its tools run without a question: what is checked is their environment)
    const args = [...launch.args, "--provider", "mock", "--model", "mock", "--no-session", "--offline", "--permission-mode", "auto"];
    const transport = ProcessTransport.spawn(launch.command, args, { env: { ...peer.env, [MALLOC_TUNABLES_ENV]: launch.env[MALLOC_TUNABLES_ENV]!, PI_SECRET_ENV: launch.env.PI_SECRET_ENV! }, cwd: peer.cwd });
    const client = new RpcClient(transport);
    try {
      await client.request("get_state", {});
      const user = await client.request("bash", { command: `printf '%s' "\${${MALLOC_TUNABLES_ENV}-unset}"` });
      assert.equal(user.output, "unset", "a user's !command runs with glibc's defaults");
      llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: `printf '%s' "\${${MALLOC_TUNABLES_ENV}-unset}" > tool.txt` } }] }, { text: "done" });
      const settled = client.waitForSettled();
      await client.request("prompt", { message: "run it" });
      await settled;
      // (in the workspace: the tool's command runs in the OS sandbox, which writes nowhere else)
      const tool = readFileSync(join(peer.cwd, "tool.txt"), "utf8");
      assert.equal(tool, "unset", "the bash tool's command runs with glibc's defaults");
    } finally {
      await transport.stop();
      client.dispose();
    }
  });

  it("leaves the user's own malloc settings alone (neither replaced nor hidden from the tools)", () => {
    const launch = editorLaunch({ ...process.env, [MALLOC_TUNABLES_ENV]: "glibc.malloc.check=0" });
    assert.equal(launch.env[MALLOC_TUNABLES_ENV], "glibc.malloc.check=0");
    assert.ok(!(launch.env.PI_SECRET_ENV ?? "").split(",").includes(MALLOC_TUNABLES_ENV));
  });
});

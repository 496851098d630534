// A configured agent given as an interpreter and its script (`pi.agent.command` = node or bun,
// `pi.agent.args` = [cli.js, …]), launched with the arguments the extension composes
// (configuredAgentArgs, what resolveAgentLaunch uses): the real pi 0.87.1, pi 1.5.2, omp and the
// bundled host start and answer get_state. The interpreter must not be handed `--mode` (node
// failed "bad option: --mode"), and a mode the user gave is not doubled.
import { strict as assert } from "node:assert";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { configuredAgentArgs } from "../../extension/supervision/launch-args";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerKind } from "../support/peers";

/** The peer's launch as a user would configure it: the script and their options, without `--mode rpc`. */
function withoutMode(args: readonly string[]): string[] {
  const at = args.indexOf("--mode");
  return at === -1 ? [...args] : [...args.slice(0, at), ...args.slice(at + 2)];
}

async function startsAndAnswers(command: string, args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  const transport = ProcessTransport.spawn(command, args, { env, cwd });
  const client = new RpcClient(transport);
  let stderr = "";
  client.onStderr((text) => (stderr += text));
  try {
    const state = await client.request("get_state", {}, { timeoutMs: 30_000 });
    return (state as { sessionId?: string }).sessionId ?? "";
  } catch (error) {
    throw new Error(`${String(error)}; stderr: ${stderr.slice(0, 400)}`);
  } finally {
    await transport.stop();
    client.dispose();
  }
}

describe("a configured agent run by its interpreter: our --mode follows the user's arguments", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  before(async () => (llm = await startMockLlm()));
  after(async () => llm.close());

  it("puts --mode rpc after the user's arguments, before a `--`, and never twice", () => {
    assert.deepEqual(configuredAgentArgs(["cli.js", "--offline"], ["-e", "x.mjs"]), ["cli.js", "--offline", "--mode", "rpc", "-e", "x.mjs"]);
    assert.deepEqual(configuredAgentArgs(["cli.js", "--mode", "rpc"], ["--session", "s"]), ["cli.js", "--mode", "rpc", "--session", "s"]);
    assert.deepEqual(configuredAgentArgs(["cli.js", "--mode=rpc"], []), ["cli.js", "--mode=rpc"]);
    // After `--` everything is a message: ours go before it, and a "--mode" there is the user's text.
    assert.deepEqual(configuredAgentArgs(["cli.js", "--", "--mode"], ["-e", "x"]), ["cli.js", "--mode", "rpc", "-e", "x", "--", "--mode"]);
  });

  for (const kind of ["pi", "pi-1.5.2", "omp", "host"] as const satisfies readonly PeerKind[]) {
    it(`starts ${kind} given as interpreter + script`, async () => {
      assertPeerInstalled(kind);
      const launch = peerLaunch(kind, { mockBaseUrl: llm.baseUrl });
      try {
        // launch.command is the interpreter (node / bun), its first argument the agent's script.
        const args = configuredAgentArgs(withoutMode(launch.args), []);
        const sessionId = await startsAndAnswers(launch.command, args, launch.env, launch.cwd);
        assert.equal(typeof sessionId, "string");
        assert.equal(args.filter((a) => a === "--mode").length, 1);
        // The user's own --mode rpc: started the same, with one --mode.
        const own = configuredAgentArgs(launch.args, []);
        assert.equal(own.filter((a) => a === "--mode").length, 1);
        await startsAndAnswers(launch.command, own, launch.env, launch.cwd);
      } finally {
        launch.cleanup();
      }
    });
  }
});

import { strict as assert } from "node:assert";
import * as os from "node:os";
import { RpcClient } from "../../shared/rpc";
import { AcpTransport } from "./acp-transport";

const files = { readTextFile: async () => "", writeTextFile: async () => undefined };

async function start(script: string): Promise<{ client: RpcClient; transport: AcpTransport }> {
  const transport = await AcpTransport.spawn({ command: process.execPath, args: ["-e", script], cwd: os.tmpdir() }, { agentName: "broken", files });
  return { client: new RpcClient(transport), transport };
}

describe("ACP transport: agents that are not what they claim", function () {
  this.timeout(20_000);

  it("a program that is no ACP agent (it prints text) fails its start within the client's timeout, and is stopped", async () => {
    const { client, transport } = await start("console.log('Welcome to my TUI'); setInterval(() => {}, 1000)");
    await assert.rejects(client.request("get_state", {}, { timeoutMs: 2000 }), /get_state got no response within 2000 ms/);
    await transport.stop(500);
    assert.ok(transport.exited);
    client.dispose();
    transport.dispose();
  });

  it("an agent that exits at once: the start fails with its exit code and its last stderr", async () => {
    const { client, transport } = await start("console.error('no API key configured'); process.exit(3)");
    await assert.rejects(client.request("get_state", {}, { timeoutMs: 10_000 }), /exited \(code 3\): no API key configured/);
    client.dispose();
    transport.dispose();
  });

  it("an agent that closes its output but lives on is stopped, and its start fails instead of waiting forever", async () => {
    const { client, transport } = await start("process.stdout.end(); setInterval(() => {}, 1000)");
    await assert.rejects(client.request("get_state", {}, { timeoutMs: 15_000 }), /exited \(signal SIGTERM\)/);
    client.dispose();
    transport.dispose();
  });

  it("a command that does not exist: the start fails saying so", async () => {
    const transport = await AcpTransport.spawn({ command: "/nonexistent/acp-agent", args: [], cwd: os.tmpdir() }, { agentName: "missing", files });
    const client = new RpcClient(transport);
    await assert.rejects(client.request("get_state", {}, { timeoutMs: 10_000 }), /ENOENT/);
    client.dispose();
    transport.dispose();
  });
});

// The host answers its first get_state without loading Node's child process modules: the sandbox's
// probe, the tools and the watchdog load them with the first command that runs (dgram came with
// child_process, ~1 ms of start-up; issue 31). Node's own list of the built-ins it loaded, written at exit.
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch } from "../support/peers";

describe("agent host: the Node modules loaded by its first get_state", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let dir: string;
  before(async () => {
    llm = await startMockLlm();
    dir = mkdtempSync(join(tmpdir(), "host-start-modules-"));
  });
  after(async () => {
    await llm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("holds no child_process or dgram", async () => {
    const list = join(dir, "modules.txt");
    const preload = join(dir, "list-modules.cjs");
    writeFileSync(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")));\n`);
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    const transport = ProcessTransport.spawn(launch.command, ["--require", preload, ...launch.args], { env: launch.env, cwd: launch.cwd });
    const client = new RpcClient(transport);
    try {
      await client.request("get_state", {});
    } finally {
      await transport.stop();
      client.dispose();
      launch.cleanup();
    }
    const loaded = readFileSync(list, "utf8").split("\n");
    assert.ok(loaded.includes("NativeModule node:net") || loaded.includes("NativeModule net"), "the list is Node's (net serves stdin)");
    assert.deepEqual(
      loaded.filter((name) => /^NativeModule (node:)?(child_process|dgram|internal\/child_process)$/.test(name)),
      [],
    );
  });
});

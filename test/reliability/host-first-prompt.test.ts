// The first prompt of a new session survives the agent being killed before any reply: our host
// writes the session header and the user's message before the model is called, so the restart
// reopens the file and the prompt is there. pi 0.87.1 writes lazily (on the first reply) and loses
// it; the figures print both.
import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerKind } from "../support/peers";

const rounds = 5;

describe("agent host: the first prompt of a new session, SIGKILLed before the reply", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  before(async () => {
    assertPeerInstalled("pi");
    llm = await startMockLlm();
  });
  after(async () => llm?.close());

  /** Prompts a new session, kills the agent while the model is called, reopens the file: was the prompt kept? */
  async function keptAfterKill(kind: PeerKind, round: number): Promise<boolean> {
    const launch = peerLaunch(kind, { mockBaseUrl: llm.baseUrl });
    const sessionDir = mkdtempSync(join(tmpdir(), "first-prompt-"));
    const start = (extra: string[]) => {
      const args = launch.args.filter((a) => a !== "--no-session").concat("--session-dir", sessionDir, ...extra);
      const transport = ProcessTransport.spawn(launch.command, args, { env: launch.env, cwd: launch.cwd });
      return { transport, client: new RpcClient(transport) };
    };
    try {
      const first = start([]);
      const { sessionFile } = await first.client.request("get_state", {});
      llm.enqueue({ kind: "hang" });
      const count = llm.requests.length;
      const text = `first prompt ${kind} ${round}`;
      await first.client.request("prompt", { message: text });
      await llm.waitForRequests(count + 1); // the model is being called: the user saw the prompt
      first.transport.kill("SIGKILL");
      await new Promise<void>((resolve) => first.client.onExit(() => resolve()));
      first.client.dispose();
      if (!sessionFile || !existsSync(sessionFile)) return false;
      const second = start(["--session", sessionFile]);
      try {
        const { messages } = await second.client.request("get_messages", {});
        return JSON.stringify(messages).includes(text);
      } finally {
        await second.transport.stop();
        second.client.dispose();
      }
    } finally {
      launch.cleanup();
      rmSync(sessionDir, { recursive: true, force: true });
    }
  }

  it("loses no first prompt (pi 0.87.1 for comparison)", async () => {
    let lost = 0;
    let piLost = 0;
    for (let round = 0; round < rounds; round++) {
      if (!(await keptAfterKill("host", round))) lost++;
      if (!(await keptAfterKill("pi", round))) piLost++;
    }
    console.log(`      figures: kills ${rounds * 2}, first prompts lost: host ${lost} of ${rounds}, pi 0.87.1 ${piLost} of ${rounds}`);
    assert.equal(lost, 0);
  });
});

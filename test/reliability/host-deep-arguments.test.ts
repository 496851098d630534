// A hostile model's tool call whose arguments nest 100,000 levels deep (or run to tens of
// megabytes) must not break the session: the run ends with agent_end, the model gets a clear tool
// error, the session file keeps everything, and the next prompt works and is persisted. The same
// for a tool result the session file cannot hold (an extension tool's details nested as deep).
import { strict as assert } from "node:assert";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { messageText, startMockLlm, toolResultMessages, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";

const DEPTH = 100_000;
const extension = resolve(__dirname, "../fixtures/extensions/deep-details.ts");

describe("agent host: deeply nested and huge tool-call arguments", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let sessionDir: string;
  before(async () => {
    llm = await startMockLlm();
    sessionDir = mkdtempSync(join(tmpdir(), "deep-args-"));
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl, extensions: [extension] });
  });
  after(async () => {
    await llm.close();
    launch.cleanup();
    rmSync(sessionDir, { recursive: true, force: true });
  });

  it("answers with a clear tool error, ends the run and keeps the session usable", async () => {
    const args = launch.args.filter((a) => a !== "--no-session").concat("--session-dir", sessionDir, "--tools", "read,write");
    const transport = ProcessTransport.spawn(launch.command, args, { env: launch.env, cwd: launch.cwd });
    const client = new RpcClient(transport);
    let agentEnds = 0;
    client.on("agent_end", () => agentEnds++);
    const cases = [
      { name: "read", arguments: `{"path": ${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}}`, argumentChunks: 50 },
      { name: "write", arguments: JSON.stringify({ path: "big.txt", content: "x".repeat(40 * 1024 * 1024) }), argumentChunks: 200 },
      { name: "deep", arguments: "{}" },
    ];
    const results: string[] = [];
    let stderr = "";
    client.onStderr((t) => (stderr += t));
    try {
      await client.request("set_auto_retry", { enabled: false });
      for (const [i, call] of cases.entries()) {
        llm.enqueue({ toolCalls: [{ id: `hostile${i}`, ...call }] }, { text: `recovered ${i}` });
        const settled = client.waitForSettled(60_000);
        await client.request("prompt", { message: `hostile ${i}` });
        await settled.catch((error: unknown) => results.push(`did not settle: ${String(error)}`));
        if (llm.pending === 0) results.push(messageText(toolResultMessages(llm.requests.at(-1)!).at(-1)!));
        else results.push(`the model was not asked again (${llm.pending} replies left)`);
      }
      llm.enqueue({ text: "all good" });
      const settled = client.waitForSettled();
      await client.request("prompt", { message: "still there?" }).catch((error: unknown) => results.push(`later prompt: ${String(error)}`));
      await settled.catch((error: unknown) => results.push(`later prompt did not settle: ${String(error)}`));
    } finally {
      await transport.stop();
      client.dispose();
    }
    const [file] = readdirSync(sessionDir);
    const text = file ? readFileSync(join(sessionDir, file), "utf8") : "";
    const expected = [...cases.flatMap((_, i) => [`hostile ${i}`, `recovered ${i}`]), "still there?", "all good"];
    const persisted = expected.filter((t) => text.includes(t)).length;
    const clear = results.filter((r) => /^Tool call refused: its arguments (nest deeper|are larger) than|^A message entry was not written to the session file: its content nests too deeply/.test(r)).length;
    console.log(`      figures: hostile calls ${cases.length} (arguments ${DEPTH} deep, 40 MB; a result ${DEPTH} deep), agent_end ${agentEnds}/${cases.length + 1}, clear tool errors ${clear}/${cases.length}, messages persisted ${persisted}/${expected.length}, session file ${(text.length / 1024).toFixed(0)} KB`);
    for (const r of results) console.log(`        tool error: ${r.slice(0, 160)}`);
    if (stderr) console.log(`        host stderr: ${stderr.slice(0, 300)}`);
    assert.equal(agentEnds, cases.length + 1);
    assert.equal(clear, cases.length);
    assert.equal(persisted, expected.length);
  });
});

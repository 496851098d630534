// A big tool call through the real host, as models stream it: one `write` of 1 MB whose arguments
// come in 20-character deltas (~50,000 of them), with a session file. The host used to re-parse all
// the arguments so far on every delta (400 KB: 90 s after the model's last byte); now each delta is
// read once. The editor's side (the RpcClient and the chat's message builder) follows the stream.
import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { AssistantMessageBuilder } from "../../shared/rpc/message-builder";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";

const CHARS = 1_000_000;

describe("agent host: a 1 MB write streamed in 20-character deltas", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let sessionDir: string;
  before(async () => {
    llm = await startMockLlm();
    sessionDir = mkdtempSync(join(tmpdir(), "big-call-"));
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
  });
  after(async () => {
    await llm.close();
    launch.cleanup();
    rmSync(sessionDir, { recursive: true, force: true });
  });

  it("writes the file, saves the call and settles in seconds, the path readable while it streams", async () => {
    const args = launch.args.filter((a) => a !== "--no-session").concat("--session-dir", sessionDir, "--tools", "read,write");
    const transport = ProcessTransport.spawn(launch.command, args, { env: launch.env, cwd: launch.cwd });
    const client = new RpcClient(transport);
    const content = "  const line = \"the quick brown fox\";\n".repeat(Math.ceil(CHARS / 39)).slice(0, CHARS);
    const argumentText = JSON.stringify({ path: "big.txt", content });
    const builder = new AssistantMessageBuilder();
    let deltas = 0;
    let pathSeenAfter = -1;
    client.on("message_start", (e) => void builder.start(e.message));
    client.on("message_update", (e) => {
      const state = builder.update(e.assistantMessageEvent);
      if (e.assistantMessageEvent.type !== "toolcall_delta") return;
      deltas++;
      const call = state.message.content[e.assistantMessageEvent.contentIndex];
      if (pathSeenAfter < 0 && call?.type === "toolCall" && call.arguments.path === "big.txt") pathSeenAfter = deltas;
    });
    try {
      await client.request("set_auto_retry", { enabled: false });
      llm.enqueue({ toolCalls: [{ id: "big1", name: "write", arguments: argumentText, argumentChunks: Math.ceil(argumentText.length / 20) }] }, { text: "written" });
      const t0 = performance.now();
      const settled = client.waitForSettled(100_000);
      await client.request("prompt", { message: "write a big file" });
      await settled;
      const seconds = (performance.now() - t0) / 1000;
      console.log(`      figures: ${deltas} deltas, prompt → settled ${seconds.toFixed(1)} s, path readable after delta ${pathSeenAfter}`);
      assert.ok(deltas >= argumentText.length / 20 - 1, `${deltas} deltas reached the client`);
      assert.ok(pathSeenAfter > 0 && pathSeenAfter <= 2, "the path shows while the call streams");
      // Quadratic, this took ~10 minutes; linear, a few seconds on a loaded machine.
      assert.ok(seconds < 30, `took ${seconds.toFixed(1)} s`);
    } finally {
      await transport.stop();
      client.dispose();
    }
    assert.equal(readFileSync(join(launch.cwd, "big.txt"), "utf8"), content);
    const [file] = readdirSync(sessionDir);
    assert.ok(file && existsSync(join(sessionDir, file)));
    const saved = readFileSync(join(sessionDir, file), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string; message?: { role: string; content: { type: string; arguments?: { content?: string } }[] } });
    const call = saved.flatMap((e) => (e.type === "message" && e.message?.role === "assistant" ? e.message.content : [])).find((c) => c.type === "toolCall");
    assert.equal(call?.arguments?.content, content, "the session file holds the whole call");
  });
});

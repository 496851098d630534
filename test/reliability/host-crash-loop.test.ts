// The agent host killed with SIGKILL at random points of a run (while streaming, while a tool
// runs, while the session is written), 20 times, resuming the same session file each time: every
// entry on disk before a kill is still there and loads afterwards.
import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { loadSessionFile } from "../../agent-host/session/persistence/session-file";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { prng } from "./frame-fuzz";

const kills = Number(process.env.PI_CRASH_KILLS ?? 20);

/** Ids of the complete lines in the file now (a line being written is not complete). */
function persistedIds(file: string): string[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, "utf8");
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  return complete.split("\n").filter(Boolean).flatMap((l) => {
    const entry = JSON.parse(l) as { type: string; id?: string };
    return entry.type === "session" || !entry.id ? [] : [entry.id];
  });
}

describe(`agent host: SIGKILL ${kills} times mid-run, resuming the same session`, function () {
  this.timeout(300_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let sessionDir: string;
  before(async () => {
    llm = await startMockLlm();
    sessionDir = mkdtempSync(join(tmpdir(), "crash-sessions-"));
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
  });
  after(async () => {
    await llm.close();
    launch.cleanup();
    rmSync(sessionDir, { recursive: true, force: true });
  });

  it("loses no persisted entry and never leaves a file that does not load", async () => {
    const random = prng(99);
    let file: string | undefined;
    let lost = 0;
    let resumes = 0;
    let maxEntries = 0;
    for (let round = 0; round < kills; round++) {
      // Each run: text, a slow bash tool call, more text, in small delayed chunks.
      if (llm.pending === 0) llm.enqueue(
        { text: ["Working ", "on ", "it. "], delayMs: 15, toolCalls: [{ name: "bash", arguments: { command: "sleep 0.2; echo done" } }] },
        { text: Array.from({ length: 20 }, (_, i) => `chunk${i} `), delayMs: 10 },
      );
      const args = launch.args.filter((a) => a !== "--no-session").concat("--session-dir", sessionDir, ...(file ? ["--session", file] : []));
      const transport = ProcessTransport.spawn(launch.command, args, { env: launch.env, cwd: launch.cwd });
      const client = new RpcClient(transport);
      await client.request("set_auto_retry", { enabled: false });
      if (file) resumes++;
      await client.request("prompt", { message: `round ${round}` });
      await new Promise((r) => setTimeout(r, 30 + random() * 500));
      file ??= readdirSync(sessionDir).map((f) => join(sessionDir, f))[0];
      const before = file ? persistedIds(file) : [];
      transport.kill("SIGKILL");
      await new Promise<void>((r) => client.onExit(() => r()));
      client.dispose();
      if (!file) continue; // killed before the first reply: pi writes nothing until then either
      const loaded = loadSessionFile(file);
      const ids = new Set(loaded.entries.map((e) => e.id));
      lost += before.filter((id) => !ids.has(id)).length;
      assert.ok(loaded.skippedLines <= round + 1, "at most one torn line per kill");
      maxEntries = loaded.entries.length;
    }
    console.log(`      figures: kills ${kills}, resumes ${resumes}, entries in the file ${maxEntries}, persisted entries lost ${lost}`);
    assert.ok(file, "a session file was written");
    assert.equal(lost, 0);
    assert.ok(resumes >= kills - 2, "the session was resumed after (nearly) every kill");
  });
});

// The host's inbound commands go through the foreign-JSON door (issue #30): the bundled host gets
// raw lines whose objects hold `__proto__`, `constructor` or `prototype` (plain, in unicode escapes,
// twice); it runs the command without them, says so on stderr, and a key under `__proto__` steers
// nothing (the session name set is the command's own).
import { strict as assert } from "node:assert";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { LineDecoder } from "../../shared/jsonl";

const hostPath = join(resolve(__dirname, "../.."), "dist/agent-host.js");

describe("agent host: foreign keys in inbound commands", function () {
  this.timeout(30_000);
  let agentDir: string;
  let host: ChildProcessWithoutNullStreams;
  let stderr = "";
  const frames: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];

  before(() => {
    assert.ok(existsSync(hostPath), "dist/agent-host.js is missing: run npm run build");
    agentDir = mkdtempSync(join(tmpdir(), "host-agent-dir-"));
    host = spawn(process.execPath, [hostPath, "--mode", "rpc", "--no-session"], { env: { ...process.env, PI_CODING_AGENT_DIR: agentDir } });
    const decoder = new LineDecoder({ onLine: (line) => (frames.push(JSON.parse(line) as Record<string, unknown>), waiters.splice(0).forEach((w) => w())) });
    host.stdout.on("data", (chunk: Buffer) => decoder.push(chunk));
    host.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  });
  after(() => {
    host.kill();
    rmSync(agentDir, { recursive: true, force: true });
  });

  /** Writes `line` and waits for the response with `id`. */
  async function answer(line: string, id: string): Promise<Record<string, unknown>> {
    host.stdin.write(`${line}\n`);
    for (;;) {
      const found = frames.find((f) => f.type === "response" && f.id === id);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  const lines: [string, string][] = [
    ["a", `{"id":"a","type":"set_session_name","name":"mine","__proto__":{"name":"theirs"}}`],
    ["b", `{"id":"b","type":"set_session_name","\\u005f\\u005fproto__":{"type":"bash","command":"touch /tmp/x"},"name":"mine"}`],
    ["c", `{"id":"c","type":"set_session_name","name":"mine","constructor":{"prototype":{"name":"theirs"}}}`],
    ["d", `{"id":"d","type":"set_session_name","__proto__":{},"__proto__":{"name":"theirs"},"name":"mine"}`],
  ];
  for (const [id, line] of lines) {
    it(`${line}: runs as the command says, without the key, and says so on stderr`, async () => {
      const before = stderr.length;
      const response = await answer(line, id);
      assert.equal(response.success, true, JSON.stringify(response));
      const state = await answer(`{"id":"state-${id}","type":"get_state"}`, `state-${id}`);
      assert.equal((state.data as { sessionName?: string }).sessionName, "mine");
      await new Promise((r) => setTimeout(r, 50));
      assert.match(stderr.slice(before), /Command line: \$\.(__proto__|constructor): key dropped/);
    });
  }

  it("a command with a missing field under __proto__ is refused, not completed from the prototype", async () => {
    const response = await answer(`{"id":"e","type":"set_session_name","__proto__":{"name":"theirs"}}`, "e");
    assert.equal(response.success, false);
    assert.match(String(response.error), /name/);
  });
});

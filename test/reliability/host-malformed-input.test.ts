// The agent host under a flood of malformed frames: every bad frame gets an error response,
// every valid query interleaved with them gets its answer, and the host never dies.
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { LineDecoder } from "../../shared/jsonl";
import { badCommandFrames, prng, validQuery, type FuzzFrame } from "./frame-fuzz";

const count = Number(process.env.PI_FUZZ_FRAMES ?? 10_000);
const host = resolve(__dirname, "../../dist/agent-host.js");

function peakRssKb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

describe(`agent host: ${count} malformed frames with valid queries interleaved`, function () {
  this.timeout(240_000);

  it("answers each bad frame with an error and every valid frame, without crashing", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "fuzz-agent-"));
    const child = spawn(process.execPath, [host, "--mode", "rpc", "--no-session"], { env: { ...process.env, PI_CODING_AGENT_DIR: agentDir }, stdio: ["pipe", "pipe", "pipe"] });
    const random = prng(20261122);
    const frames: FuzzFrame[] = [];
    for (let n = 0; n < count; n++) frames.push(random() < 0.8 ? badCommandFrames(random, n) : validQuery(random, n));
    // One record longer than the host's line limit, in the middle of the stream.
    frames.splice(Math.floor(frames.length / 2), 0, { kind: "over the line limit", bytes: Buffer.from(`{"type":"prompt","message":"${"y".repeat(32 * 1024 * 1024)}"}\n`) });
    const bad = frames.filter((f) => !f.validId).length;
    const expected = new Set(frames.flatMap((f) => (f.validId ? [f.validId] : [])));

    let errors = 0;
    let answered = 0;
    let peak = 0;
    const decoder = new LineDecoder({
      onLine: (text) => {
        if (!text) return;
        const frame = JSON.parse(text) as { type?: string; id?: string; success?: boolean };
        if (frame.type !== "response") return;
        if (frame.success === false) errors++;
        else if (frame.id !== undefined && expected.delete(frame.id)) answered++;
      },
    });
    child.stdout.on("data", (chunk: Buffer) => decoder.push(chunk));
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    let crashed = false;
    child.on("exit", (code) => (crashed = code !== 0));

    const write = (bytes: Buffer) => new Promise<void>((done) => (child.stdin.write(bytes) ? done() : child.stdin.once("drain", () => done())));
    for (const [i, frame] of frames.entries()) {
      await write(frame.bytes);
      if (i % 500 === 0) peak = Math.max(peak, peakRssKb(child.pid!));
    }
    // A final marker query: once it is answered, every earlier frame has been handled.
    await write(Buffer.from('{"id":"last","type":"get_state"}\n'));
    expected.add("last");
    const deadline = Date.now() + 120_000;
    while (expected.size > 0 && Date.now() < deadline && !crashed) await new Promise((r) => setTimeout(r, 50));
    peak = Math.max(peak, peakRssKb(child.pid!));
    child.stdin.end();
    const code = await exited;
    rmSync(agentDir, { recursive: true, force: true });

    const lost = expected.size;
    console.log(`      figures: frames sent ${frames.length + 1} (${bad} bad), errors answered ${errors}, valid frames lost ${lost}, crashes ${code === 0 ? 0 : 1}, peak RSS ${(peak / 1024).toFixed(1)} MiB`);
    assert.equal(lost, 0, "every valid query is answered");
    assert.equal(errors, bad, "every bad frame gets exactly one error response");
    assert.equal(code, 0, "the host exits normally at EOF");
  });
});

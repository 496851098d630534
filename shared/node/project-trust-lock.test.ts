// Pi's trust lock (trust.json.lock) as the editor and our host take it: waiting never blocks the
// thread, and processes deciding at once each keep their decision.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { saveTrust, savedTrust } from "./project-trust";

const saver = path.join(__dirname, "..", "..", "test", "fixtures", "trust", "save-decisions.ts");

/** A process that saves `count` decisions once told to start. */
function startSaver(agentDir: string, root: string, prefix: string, count: number): { ready: Promise<void>; done: Promise<void>; go(): void } {
  const child = spawn(process.execPath, ["--import", "tsx", saver, agentDir, root, prefix, String(count)], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes("ready")) markReady();
  });
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const done = new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 && out.includes("done") ? resolve() : reject(new Error(`saver ${prefix} exited ${code}: ${out}`))));
  });
  return { ready, done, go: () => child.stdin.end("go\n") };
}

describe("project trust: pi's lock, taken without blocking", function () {
  this.timeout(60_000);
  let root: string;
  let agentDir: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "trust-lock-")));
    agentDir = path.join(root, "agent");
    fs.mkdirSync(agentDir);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("waits for a held lock with the event loop free, then saves", async () => {
    const lock = path.join(agentDir, "trust.json.lock");
    fs.mkdirSync(lock); // held by someone else (pi makes the same directory)
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const released = setTimeout(() => fs.rmSync(lock, { recursive: true, force: true }), 300);
    try {
      const saving = saveTrust(agentDir, root, true);
      assert.ok(saving instanceof Promise, "saveTrust returns at once");
      await saving;
    } finally {
      clearInterval(timer);
      clearTimeout(released);
    }
    assert.ok(ticks >= 20, `a 5 ms timer fired ${ticks} times while the lock was held for 300 ms`);
    assert.deepEqual(savedTrust(agentDir, root), { folder: root, trusted: true });
    assert.equal(fs.existsSync(lock), false, "the lock is released");
  });

  it("takes over a stale lock (pi's 10 s) and gives up on a live one with a plain message", async () => {
    const lock = path.join(agentDir, "trust.json.lock");
    fs.mkdirSync(lock);
    const old = new Date(Date.now() - 20_000);
    fs.utimesSync(lock, old, old);
    await saveTrust(agentDir, root, false);
    assert.equal(savedTrust(agentDir, root)?.trusted, false);
    fs.mkdirSync(lock);
    const started = Date.now();
    await assert.rejects(saveTrust(agentDir, root, true), /The trust store is locked/);
    assert.ok(Date.now() - started < 5_000, "it gives up within seconds");
    assert.equal(savedTrust(agentDir, root)?.trusted, false, "nothing was written without the lock");
    fs.rmSync(lock, { recursive: true });
  });

  it("keeps every decision when two processes decide at once", async () => {
    const count = 60;
    const savers = [startSaver(agentDir, root, "a", count), startSaver(agentDir, root, "b", count)];
    await Promise.all(savers.map((s) => s.ready));
    for (const s of savers) s.go();
    await Promise.all(savers.map((s) => s.done));
    const store = JSON.parse(fs.readFileSync(path.join(agentDir, "trust.json"), "utf8")) as Record<string, boolean>;
    for (const prefix of ["a", "b"]) {
      for (let i = 0; i < count; i++) assert.equal(store[path.join(root, `${prefix}-${i}`)], i % 2 === 0, `${prefix}-${i} kept`);
    }
    assert.equal(Object.keys(store).length, 2 * count);
    assert.equal(fs.existsSync(path.join(agentDir, "trust.json.lock")), false);
  });
});

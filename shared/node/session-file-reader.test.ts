// A session file is foreign: pi or omp sandboxed as a whole writes its sessions/ folder, and a
// session's header names its parent by path (checkpoints/lineage.ts follows it). Resume Session
// reads every *.jsonl there in the extension host, synchronously: a FIFO or a device there must not
// hang it or fill its memory. Run in a child process, so that a hang is a failure, not a stuck run.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runInChild } from "../../test/support/run-in-child";

const reader = path.join(__dirname, "session-summary.ts");

/** The files listed, whether it hung, the child's peak memory (MB). */
function summariesIn(dir: string): { timedOut: boolean; out: string; ms: number; peakMb: number } {
  const started = Date.now();
  const run = runInChild(`const path = require("node:path"); const { listSessions } = require(${JSON.stringify(reader)}); console.log(JSON.stringify(listSessions(${JSON.stringify(dir)}).map((s) => path.basename(s.file))))`);
  return { timedOut: run.timedOut, out: run.lines[0] ?? run.stderr, ms: Date.now() - started, peakMb: run.peakMb };
}

describe("session files read by the editor: only regular files (foreign folder)", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-session-reader-"));
    fs.writeFileSync(path.join(dir, "good.jsonl"), `${JSON.stringify({ type: "session", version: 3, id: "g", timestamp: new Date().toISOString(), cwd: "/w" })}\n`);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("a FIFO named *.jsonl is skipped, not waited on", function () {
    if (process.platform === "win32") this.skip();
    execFileSync("mkfifo", [path.join(dir, "evil.jsonl")]);
    const result = summariesIn(dir);
    assert.equal(result.timedOut, false, `listing the sessions hung on the FIFO (${result.ms} ms)`);
    assert.equal(result.out, '["good.jsonl"]');
  });

  it("a symlink to /dev/zero named *.jsonl is skipped, not read without end", function () {
    if (process.platform === "win32") this.skip();
    fs.symlinkSync("/dev/zero", path.join(dir, "zero.jsonl"));
    const result = summariesIn(dir);
    assert.equal(result.timedOut, false, `listing the sessions read /dev/zero for ${result.ms} ms`);
    assert.ok(result.peakMb < 400, `listing the sessions took ${result.peakMb} MB reading /dev/zero`);
    assert.equal(result.out, '["good.jsonl"]');
  });
});

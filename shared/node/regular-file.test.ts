// Foreign settings-like files (models.json in an agent's folder that pi/omp sandboxed as a whole
// can make, a repository's .vscode/mcp.json or .pi/settings.json, which git can ship as a symlink)
// are read synchronously in the extension host: a FIFO or a device must not hang it or fill its
// memory. Each read runs in a child process, so that a hang is a failure, not a stuck run.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runInChild } from "../../test/support/run-in-child";

const foreignFile = path.join(__dirname, "foreign-file.ts");

/** readForeignFile of `file` in a child: its problems, whether it hung, its peak memory (MB). */
function readInChild(file: string): { timedOut: boolean; problems: string; peakMb: number } {
  const run = runInChild(`const { readForeignFile } = require(${JSON.stringify(foreignFile)}); const problems = []; readForeignFile(${JSON.stringify(file)}, () => true, problems); console.log(JSON.stringify(problems))`);
  return { timedOut: run.timedOut, problems: run.lines[0] ?? run.stderr, peakMb: run.peakMb };
}

describe("foreign files read by the editor: only regular files, of bounded size", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-regular-file-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("a FIFO (an agent's mkfifo ~/.pi/agent/models.json) is a problem, not a hang", function () {
    if (process.platform === "win32") this.skip();
    const file = path.join(dir, "models.json");
    execFileSync("mkfifo", [file]);
    const result = readInChild(file);
    assert.equal(result.timedOut, false, "the read hung on the FIFO");
    assert.match(result.problems, /not a regular file/);
  });

  it("a symlink to /dev/zero (a repository's .vscode/mcp.json) is a problem, not gigabytes read", function () {
    if (process.platform === "win32") this.skip();
    const file = path.join(dir, "mcp.json");
    fs.symlinkSync("/dev/zero", file);
    const result = readInChild(file);
    assert.equal(result.timedOut, false, "the read of /dev/zero did not end");
    assert.ok(result.peakMb < 400, `the read took ${result.peakMb} MB`);
    assert.match(result.problems, /not a regular file/);
  });

  it("a 17 MB file is a problem; a symlink to a regular file is read", () => {
    const big = path.join(dir, "big.json");
    fs.writeFileSync(big, Buffer.alloc(17 * 1024 * 1024, 0x20));
    const problems: string[] = [];
    const { readForeignFile } = require("./foreign-file") as typeof import("./foreign-file");
    assert.deepEqual(readForeignFile(big, () => true, problems), {});
    assert.match(problems.join(), /larger than/);
    const real = path.join(dir, "real.json");
    fs.writeFileSync(real, '{"a":1}');
    fs.symlinkSync(real, path.join(dir, "link.json"));
    assert.equal((readForeignFile(path.join(dir, "link.json"), () => true, []) as { a?: number }).a, 1);
  });
});

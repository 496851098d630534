import { strict as assert } from "node:assert";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { createBashTool, type BashToolDetails } from "./bash";
import { gone, run, tempDir, textOf, until } from "./test-support";

describe("tools/bash", function () {
  this.timeout(20000);
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("runs in cwd and returns stdout and stderr", async () => {
    const { result } = await run(createBashTool(dir), { command: "pwd; echo out; echo err >&2" });
    assert.equal(result.isError, undefined);
    const text = textOf(result);
    assert.ok(text.startsWith(`${realpathSync(dir)}\n`));
    assert.match(text, /out\n/);
    assert.match(text, /err\n/);
  });

  it("says (no output) for a silent command", async () => {
    assert.equal(textOf((await run(createBashTool(dir), { command: "true" })).result), "(no output)");
  });

  it("reports a non-zero exit as an error with the output and the code", async () => {
    const { result } = await run(createBashTool(dir), { command: "echo before; exit 3" });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), "before\n\n\nCommand exited with code 3");
    assert.equal((result.details as BashToolDetails).exitCode, 3);
  });

  it("streams output through onUpdate before the command ends", async () => {
    const seen: string[] = [];
    let finished = false;
    const tool = createBashTool(dir);
    const done = tool
      .execute("c", { command: "echo first; sleep 1; echo second" }, new AbortController().signal, (u) => {
        if (!finished) seen.push(u.content.map((c) => (c.type === "text" ? c.text : "")).join(""));
      })
      .then((r) => ((finished = true), r));
    await until(() => seen.some((s) => s.includes("first")));
    assert.equal(finished, false, "an update with the first line arrived while the command was still running");
    assert.ok(!seen.some((s) => s.includes("second")));
    assert.equal(textOf(await done), "first\nsecond\n");
  });

  it("kills the command and everything it started on abort", async () => {
    const controller = new AbortController();
    const pidFile = join(dir, "child.pid");
    const pending = run(createBashTool(dir), { command: `sleep 60 & echo $! > ${pidFile}; echo started; wait` }, controller.signal);
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf-8").trim() !== "");
    const child = Number(readFileSync(pidFile, "utf-8").trim());
    assert.equal(gone(child), false);
    controller.abort();
    const { result } = await pending;
    assert.equal(result.isError, true);
    assert.match(textOf(result), /started\n\n\nCommand aborted$/);
    await until(() => gone(child), 3000);
  });

  it("times out, killing the command", async () => {
    const pidFile = join(dir, "t.pid");
    const started = Date.now();
    const { result } = await run(createBashTool(dir), { command: `sleep 30 & echo $! > ${pidFile}; wait`, timeout: 0.5 });
    assert.ok(Date.now() - started < 5000);
    assert.equal(result.isError, true);
    assert.equal(textOf(result), "Command timed out after 0.5 seconds");
    await until(() => gone(Number(readFileSync(pidFile, "utf-8").trim())), 3000);
  });

  it("rejects a nonsensical timeout", async () => {
    const { result } = await run(createBashTool(dir), { command: "true", timeout: -1 });
    assert.equal(textOf(result), "Invalid timeout: must be a finite number of seconds");
  });

  it("keeps the tail of huge output and saves all of it to a temp file", async () => {
    const { result } = await run(createBashTool(dir, { tempDir: dir }), { command: "seq 1 5000" });
    const text = textOf(result);
    const details = result.details as BashToolDetails;
    assert.ok(details.fullOutputPath?.startsWith(join(dir, "pi-bash-")));
    assert.ok(text.startsWith("3001\n"));
    assert.ok(text.endsWith(`5000\n\n[Showing lines 3001-5000 of 5000. Full output: ${details.fullOutputPath}]`));
    assert.equal(details.truncation?.totalLines, 5000);
    const full = readFileSync(details.fullOutputPath!, "utf-8");
    assert.equal(full, Array.from({ length: 5000 }, (_, i) => `${i + 1}\n`).join(""));
  });

  it("cuts by bytes and shows the end of a single enormous line", async () => {
    const wide = await run(createBashTool(dir, { tempDir: dir }), { command: "for i in $(seq 1 100); do printf '%01000d\\n' $i; done" });
    const notice = (t: string) => t.slice(t.lastIndexOf("\n\n[") + 2);
    assert.match(notice(textOf(wide.result)), /^\[Showing lines 50-100 of 100 \(50\.0KB limit\)\. Full output: .*\]$/);
    const one = await run(createBashTool(dir, { tempDir: dir }), { command: "head -c 80000 /dev/zero | tr '\\0' a" });
    const text = textOf(one.result);
    assert.equal(text.indexOf("\n"), 51200);
    assert.match(notice(text), /^\[Showing last 50\.0KB of line 1 \(line is 78\.1KB\)\. Full output: .*\]$/);
  });

  it("runs through its ShellIo seam with the command prefix", async () => {
    const seen: string[] = [];
    const tool = createBashTool("/x", {
      commandPrefix: "set -e",
      io: { exec: async (command, cwd, o) => (seen.push(`${cwd}|${command}`), o.onData(Buffer.from("hi\n")), { exitCode: 0 }) },
    });
    assert.equal(textOf((await run(tool, { command: "ls" })).result), "hi\n");
    assert.deepEqual(seen, ["/x|set -e\nls"]);
  });

  it("fails clearly when the working directory is gone", async () => {
    const { result } = await run(createBashTool(join(dir, "missing")), { command: "true" });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^Working directory does not exist: /);
  });
});

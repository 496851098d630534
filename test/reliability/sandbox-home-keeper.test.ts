/**
 * The home keeper (shared/node/sandbox/home-keeper.ts) with the real bwrap and nsenter: commands
 * start in its namespaces, see home as it is now (a name added, a file saved anew by rename), never
 * a secret stored after it started, go on when it dies, and nothing of it is left after dispose.
 */
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CommandSandbox } from "../../shared/node/sandbox";
import { runSandboxed } from "../support/sandboxed-run";

describe("sandbox: the home keeper, with the real bwrap", function () {
  this.timeout(60_000);
  let home: string;
  let sandbox: CommandSandbox;

  beforeEach(() => {
    home = realpathSync(mkdtempSync("/var/tmp/pi-keeper-"));
    for (let i = 0; i < 40; i++) mkdirSync(join(home, `d${i}`));
    writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = before\n");
    writeFileSync(join(home, ".netrc"), "machine example.com password SECRET-NETRC\n");
    mkdirSync(join(home, "proj"));
    sandbox = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: join(home, "proj"), writableRoots: [] }, { ...process.env, HOME: home });
  });
  afterEach(() => {
    sandbox.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  /** One command as the bash tool runs it: prepare, wrap, spawn; its output and whether it ran in a keeper. */
  async function run(script: string): Promise<{ out: string; inKeeper: boolean; code: number | null }> {
    const { out, code, argv } = await runSandboxed(sandbox, script, join(home, "proj"));
    return { out, inKeeper: argv.some((arg) => arg.endsWith("/nsenter")), code };
  }


  it("starts the first command in its namespaces already, home's entries there, its secrets not", async () => {
    const first = await run(`ls -a ${home} | grep -c '^d'; cat ${home}/.netrc; echo end`);
    assert.ok(first.inKeeper, "the first command in the keeper");
    assert.match(first.out, /^40$/m);
    assert.doesNotMatch(first.out, /SECRET-NETRC/);
    assert.match(first.out, /end/);
  });

  it("shows a name added to home, and a file there saved anew by rename, to the next command (a new keeper)", async () => {
    await run("true");
    writeFileSync(join(home, "added.txt"), "ADDED\n");
    writeFileSync(join(home, ".gitconfig.tmp"), "[user]\n\tname = after\n");
    renameSync(join(home, ".gitconfig.tmp"), join(home, ".gitconfig"));
    const next = await run(`cat ${home}/added.txt ${home}/.gitconfig`);
    assert.ok(next.inKeeper);
    assert.match(next.out, /ADDED/);
    assert.match(next.out, /name = after/, "not the keeper's bind of the old file");
  });

  it("never shows a secret stored after it started: not to the next command, not to a job still running", async () => {
    const job = run(`until [ -e ${home}/proj/stop ]; do cat ${home}/.git-credentials 2>/dev/null >> ${home}/proj/seen; sleep 0.05; done`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    writeFileSync(join(home, ".git-credentials"), "https://me:SECRET-GIT@example.com\n");
    const next = await run(`cat ${home}/.git-credentials; echo end`);
    assert.doesNotMatch(next.out, /SECRET-GIT/);
    writeFileSync(join(home, "proj/stop"), "");
    await job;
    const seen = await run(`cat ${home}/proj/seen 2>/dev/null; echo end`);
    assert.doesNotMatch(seen.out, /SECRET-GIT/);
  });

  it("runs the next command when its keeper was killed, and a job started in a keeper outlives its replacement", async () => {
    const job = run(`sleep 1; ls ${home}/d0 >/dev/null && echo JOB-OK`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(join(home, "another"), "");
    assert.ok((await run("true")).inKeeper, "a new keeper for the new listing");
    const result = await job;
    assert.match(result.out, /JOB-OK/);
    assert.equal(result.code, 0);
    for (const pid of keeperPids(home)) process.kill(pid, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await run(`cat ${home}/.gitconfig; cat ${home}/.netrc; echo end`);
    assert.equal(after.code, 0, after.out);
    assert.match(after.out, /name = before/);
    assert.doesNotMatch(after.out, /SECRET-NETRC/);
  });

  it("leaves no keeper behind once disposed", async () => {
    await run("true");
    assert.ok(keeperPids(home).length > 0, "a keeper while the sandbox lives");
    sandbox.dispose();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(keeperPids(home), []);
  });
});

/** The bwrap processes keeping a view of this home (their argv names it). */
function keeperPids(home: string): number[] {
  const { execFileSync } = require("node:child_process") as typeof import("node:child_process");
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.includes("bwrap --dev-bind / /") && line.includes(home))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

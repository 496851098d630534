/**
 * A hostile review of the home keeper (shared/node/sandbox/home-keeper.ts), real bwrap and
 * nsenter: what a sandboxed command can do to the programs and the namespaces every later command
 * is started through. Each test failed before its fix, but the two said to hold (kept: the keeper's
 * / is the host's, writable, so any way in would be a way out; and a way to change what it lists
 * would let a job swap a secret in under the key).
 */
import { strict as assert } from "node:assert";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CommandSandbox, type SandboxPolicy } from "../../shared/node/sandbox";
import { resetSandboxProbe } from "../../shared/node/sandbox/probe";
import { runSandboxed, startWrapped } from "../support/sandboxed-run";

describe("sandbox: attacks on the home keeper, with the real bwrap", function () {
  this.timeout(60_000);
  let home: string;
  const sandboxes: CommandSandbox[] = [];

  beforeEach(() => {
    home = realpathSync(mkdtempSync("/var/tmp/pi-keeper-attack-"));
    writeFileSync(join(home, ".netrc"), "machine example.com password SECRET-NETRC\n");
    mkdirSync(join(home, "proj"));
  });
  afterEach(() => {
    for (const sandbox of sandboxes.splice(0)) sandbox.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  function sandboxOf(env: NodeJS.ProcessEnv, policy: Partial<SandboxPolicy> = {}): CommandSandbox {
    const sandbox = new CommandSandbox({ mode: "workspace-write", network: false, workspaceRoot: join(home, "proj"), writableRoots: [], ...policy }, { ...process.env, HOME: home, ...env });
    sandboxes.push(sandbox);
    return sandbox;
  }

  /** One command as the bash tool runs it, in the workspace. */
  const run = (sandbox: CommandSandbox, script: string) => runSandboxed(sandbox, script, join(home, "proj"));

  it("never starts a command through an nsenter a sandboxed command planted on the host's PATH (a bin folder in the workspace)", async () => {
    // The editor's PATH names a folder of the workspace (direnv's PATH_add bin, ~/bin with home as the workspace).
    const bin = join(home, "proj/bin");
    mkdirSync(bin);
    const env = { PATH: `${bin}:/usr/bin:/bin` };
    const planted = join(home, "ESCAPED");
    const plant = `printf '#!/bin/sh\\necho escaped > ${planted}\\nexec /usr/bin/nsenter "$@"\\n' > ${bin}/nsenter && chmod +x ${bin}/nsenter && echo planted`;
    const first = await run(sandboxOf(env), plant);
    assert.match(first.out, /planted/, first.out);
    // The next session: a new sandbox, the same editor's environment.
    const next = await run(sandboxOf(env), "echo ran");
    assert.match(next.out, /ran/, next.out);
    assert.ok(!existsSync(planted), `the planted nsenter ran outside the sandbox: ${next.argv.slice(0, 3).join(" ")}`);
    assert.ok(!next.argv.some((arg) => arg.startsWith(bin)), next.argv.join(" "));
    assert.ok(next.argv.includes("/usr/bin/nsenter"), `in a keeper, through the system's nsenter: ${next.argv.slice(0, 3).join(" ")}`);
  });

  it("never takes a bwrap a sandboxed command planted on the host's PATH (the next host process's probe)", async () => {
    const bin = join(home, "proj/bin");
    mkdirSync(bin);
    const env = { PATH: `${bin}:/usr/bin:/bin` };
    const planted = join(home, "ESCAPED");
    const plant = `printf '#!/bin/sh\\necho escaped > ${planted}\\nexec /usr/bin/bwrap "$@"\\n' > ${bin}/bwrap && chmod +x ${bin}/bwrap && echo planted`;
    try {
      const first = await run(sandboxOf(env), plant);
      assert.match(first.out, /planted/, first.out);
      // A new host process: the probe looks for bwrap again.
      resetSandboxProbe();
      const next = await run(sandboxOf(env), "echo ran");
      assert.match(next.out, /ran/, next.out);
      assert.ok(!existsSync(planted), "the planted bwrap ran outside the sandbox");
      assert.ok(!next.argv.some((arg) => arg.startsWith(bin)), next.argv.join(" "));
    } finally {
      resetSandboxProbe();
    }
  });

  it("runs commands in a workspace inside a folder the sandbox hides (~/.mozilla/…/chrome), the rest of that folder hidden", async () => {
    const profile = join(home, ".mozilla/firefox/p.default");
    const chrome = join(profile, "chrome");
    mkdirSync(chrome, { recursive: true });
    writeFileSync(join(chrome, "userChrome.css"), "#nav-bar { WORKSPACE-FILE }\n");
    writeFileSync(join(profile, "logins.json"), "SECRET-LOGINS\n");
    const sandbox = sandboxOf({}, { workspaceRoot: chrome });
    const probe = await sandbox.probe();
    assert.ok(probe.ok);
    await sandbox.prepare();
    const script = `cat ${chrome}/userChrome.css; cat ${profile}/logins.json; echo new > ${chrome}/made && echo wrote`;
    const result = await startWrapped(sandbox.wrap(probe, ["/bin/sh", "-c", script], chrome));
    assert.ok(result.argv.includes("/usr/bin/nsenter"), "in the keeper");
    assert.match(result.out, /WORKSPACE-FILE/);
    assert.match(result.out, /wrote/);
    assert.doesNotMatch(result.out, /SECRET-LOGINS/);
  });

  it("gives a command no way into the keeper's namespaces, whose / is the host's, writable (held: a test of what a way in would need)", async () => {
    const script = [
      // Only its own processes: the keeper's (and the host's) pids, /proc/<pid>/root and ns are out of sight.
      `echo "pids: $(ls /proc | grep -cE '^[0-9]+$')"`,
      // No procfs but at /proc, where a fresh one covers the host's of the keeper's tree.
      `echo "procs elsewhere: $(grep ' - proc ' /proc/self/mountinfo | awk '{print $5}' | grep -vc '^/proc')"`,
      "grep CapEff /proc/self/status",
      "touch /escaped 2>&1; unshare -Ur true 2>&1; nsenter --mount=/proc/1/ns/mnt true 2>&1; echo end",
    ].join("; ");
    const result = await run(sandboxOf({}), script);
    assert.ok(result.argv.includes("/usr/bin/nsenter"), "in the keeper");
    const pids = Number(/pids: (\d+)/.exec(result.out)?.[1]);
    assert.ok(pids > 0 && pids < 8, `only its own processes: ${pids}\n${result.out}`);
    assert.match(result.out, /procs elsewhere: 0\n/);
    assert.match(result.out, /CapEff:\s+0+\n/);
    assert.match(result.out, /touch: cannot touch '\/escaped': Read-only file system/);
    assert.match(result.out, /unshare: unshare failed/, "no user namespace of its own");
    assert.match(result.out, /nsenter: reassociate to namespace 'ns\/mnt' failed: Operation not permitted/);
    assert.ok(!existsSync("/escaped"));
  });

  it("leaves a command no way to change what the keeper lists (the key's listing), home as the workspace (held)", async () => {
    // A job that could rename, link or add names in a rebuilt folder could swap a secret in between
    // the listing and the keeper's binds, then put things back so the key still matched.
    mkdirSync(join(home, "w"));
    mkdirSync(join(home, ".config/gh"), { recursive: true });
    const tries = [`mv ${home}/w ${home}/w2`, `ln -s .netrc ${home}/innocent`, `touch ${home}/.git-credentials`, `mv ${home}/.config/gh ${home}/.config/gh2`, `ln -s ../.netrc ${home}/.config/x`, `chmod 777 ${home}`, `rmdir ${home}/w`];
    const result = await run(sandboxOf({}, { workspaceRoot: home }), tries.map((t) => `${t} 2>/dev/null && echo "CHANGED: ${t}"`).join("; ") + "; echo end");
    assert.ok(result.argv.includes("/usr/bin/nsenter"), "in the keeper");
    assert.match(result.out, /end/);
    assert.doesNotMatch(result.out, /CHANGED/);
  });

  /**
   * The keeper dies (the OOM killer, the user's kill) just as a command is wrapped: the host has not
   * seen its exit yet. `impostor` then starts a process in a user and mount namespace of its own
   * (any sandbox, a flatpak app, `unshare -r`) under the keeper's pid; the command is started.
   */
  async function keeperDiesAtWrap(impostor: boolean): Promise<{ out: string; code: number | null }> {
    const sandbox = sandboxOf({});
    const probe = await sandbox.probe();
    assert.ok(probe.ok);
    await sandbox.prepare();
    const pid = keeperPid(home);
    process.kill(pid, "SIGKILL");
    // Synchronously from here: the host's event loop does not run, so its keeper still looks alive.
    for (let i = 0; i < 2000 && existsSync(`/proc/${pid}`); i++) sleepSync(1);
    assert.ok(!existsSync(`/proc/${pid}`), "the keeper's process is gone");
    let other: ChildProcess | undefined;
    for (let tries = 0; impostor && other?.pid !== pid && tries < 200; tries++) {
      other?.kill("SIGKILL");
      writeFileSync("/proc/sys/kernel/ns_last_pid", String(pid - 1));
      other = spawn("unshare", ["--user", "--map-root-user", "--mount", "sleep", "30"], { stdio: "ignore" });
    }
    try {
      if (impostor) assert.equal(other?.pid, pid, "the impostor has the keeper's pid");
      const wrapped = sandbox.wrap(probe, ["/bin/sh", "-c", `cat ${home}/.netrc; echo end`], join(home, "proj"));
      return await startWrapped(wrapped);
    } finally {
      other?.kill("SIGKILL");
    }
  }

  it("starts a command wrapped as its keeper died in that keeper's view (not a failed nsenter)", async () => {
    const result = await keeperDiesAtWrap(false);
    assert.equal(result.code, 0, result.out);
    assert.match(result.out, /end/);
    assert.doesNotMatch(result.out, /SECRET-NETRC/);
  });

  it("never starts a command in another process's namespaces that took its dead keeper's pid", async function () {
    if (process.getuid?.() !== 0) this.skip(); // handing out a chosen pid (ns_last_pid) takes root
    const result = await keeperDiesAtWrap(true);
    assert.doesNotMatch(result.out, /SECRET-NETRC/, "the command ran in the impostor's view of home");
  });
});

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The keeper's process (its bwrap's child, whose namespaces commands enter) for this home. */
function keeperPid(home: string): number {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .flatMap((m) => (m ? [{ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }] : []));
  const bwrap = rows.filter((row) => row.args.includes("bwrap --dev-bind / /") && row.args.includes(home));
  const child = rows.find((row) => bwrap.some((b) => b.pid === row.ppid));
  assert.ok(child, "a keeper is up");
  return child.pid;
}

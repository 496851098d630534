// Attack (#34 hostile review of the stubs held across processes): the bundled host over RPC with
// the scripted LLM and real bubblewrap, the model's own sandboxed bash as the attacker.
//  - Home inside the workspace (a user who opens ~ as the folder): ~/.config/fish, ~/.config/git,
//    ~/.config/systemd, ~/.local/bin … are kept read-only by mounts one folder down, and a mount
//    moves with its folder: `mv .config x && mkdir -p .config/git` wrote a global git config
//    (core.fsmonitor: run by every git of the user's) and `mv .local x` a program in ~/.local/bin.
//  - The ledger folder taken by another local user (`/tmp/pi-sandbox-stubs-<uid>` made first, where
//    there is no $XDG_RUNTIME_DIR): no ledger, so a second host removed the mount points the first
//    host's background job still used, and that job wrote .vscode/tasks.json on the host.
// Both failed before the fix.
import { strict as assert } from "node:assert";
import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost, until, type Frame } from "./raw-host";

let ids = 0;
const nextId = () => `t${++ids}`;
const sandboxed = ["--sandbox", "workspace-write", "--permission-mode", "auto"];

async function bash(llm: MockLlm, host: RawHost, command: string): Promise<string> {
  llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
  const { from } = await host.promptAnswering(nextId(), "run it", () => undefined);
  const end = host.frames.slice(from).find((f) => f.type === "tool_execution_end") as (Frame & { result: { content: { text?: string }[] } }) | undefined;
  assert.ok(end, "the bash tool ran");
  return end.result.content.map((c) => c.text ?? "").join("");
}

describe("agent host: the sandbox's mount points attacked from inside and by another user", function () {
  this.timeout(180_000);
  let llm: MockLlm;
  let root: string;
  const launches: PeerLaunch[] = [];

  before(async () => {
    llm = await startMockLlm();
    root = mkdtempSync(join(tmpdir(), "stub-attacks-"));
  });
  after(async () => {
    await llm.close();
    for (const launch of launches) launch.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  /** A host over a repository and a second one over its subfolder `pkg/`, one ledger folder; the path a planted fsmonitor would touch. */
  const nestedHosts = async (markerName: string) => {
    const ledger = mkdtempSync(join(root, "ledger-"));
    const outer = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(outer);
    execFileSync("git", ["init", "-q", "."], { cwd: outer.cwd });
    const sub = join(outer.cwd, "pkg");
    mkdirSync(sub);
    const llm2 = await startMockLlm();
    const inner = peerLaunch("host", { mockBaseUrl: llm2.baseUrl, cwd: sub });
    launches.push(inner);
    const first = new RawHost(outer.command, [...outer.args, ...sandboxed], { env: { ...outer.env, PI_SANDBOX_LEDGER_DIR: ledger }, cwd: outer.cwd });
    const second = new RawHost(inner.command, [...inner.args, ...sandboxed], { env: { ...inner.env, PI_SANDBOX_LEDGER_DIR: ledger }, cwd: sub });
    return { outer, sub, marker: join(root, markerName), llm2, first, second };
  };

  it("home as the workspace: renaming ~/.config or ~/.local does not take their read-only startup folders along", async () => {
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(launch);
    const home = launch.cwd;
    mkdirSync(join(home, ".config/fish"), { recursive: true }); // ~/.local is missing: bwrap would make it
    mkdirSync(join(home, ".config/app"));
    const before = readdirSync(home).sort();
    const host = new RawHost(launch.command, [...launch.args, ...sandboxed], { env: { ...launch.env, HOME: home, PI_SANDBOX_LEDGER_DIR: mkdtempSync(join(root, "ledger-")) }, cwd: home });
    try {
      const output = await bash(
        llm,
        host,
        [
          `(mv .config .config.moved && mkdir -p .config/git && printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' > .config/git/config && echo GOT:git-config) 2>&1`,
          `(mv .local .local.moved && mkdir -p .local/bin && echo 'echo pwned' > .local/bin/ls && echo GOT:local-bin) 2>&1`,
          `(rm -rf .config/systemd; mkdir -p .config/systemd/user && echo '[Service]' > .config/systemd/user/x.service && echo GOT:systemd) 2>&1`,
          "true",
        ].join("\n"),
      );
      assert.doesNotMatch(output, /GOT:/, output);
      assert.equal(existsSync(join(home, ".config/git/config")), false, "no global git config written");
      assert.equal(existsSync(join(home, ".local/bin/ls")), false, "nothing put in ~/.local/bin");
      assert.equal(existsSync(join(home, ".config/systemd/user/x.service")), false, "no user service");
      // Still a usable home: files in a folder beside the startup folders are written as before (no
      // new name in ~/.config itself: it holds secrets' places, rebuilt read-only, home-view.ts).
      assert.match(await bash(llm, host, "echo ok > .config/app/x && cat .config/app/x"), /ok/);
    } finally {
      await host.stop();
    }
    rmSync(join(home, ".config/app"), { recursive: true, force: true });
    // ~/.cache is the host's own (its compile cache), not a mount point.
    assert.deepEqual(readdirSync(home).filter((name) => name !== ".cache").sort(), before, "no mount point left in the user's home");
    assert.deepEqual(readdirSync(join(home, ".config")), ["fish"], "nor in ~/.config");
  });

  it("home as the workspace with ~/.config a symlink (dotfiles): the link cannot be replaced for good, its target's folders not renamed", async () => {
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(launch);
    const home = launch.cwd;
    mkdirSync(join(home, "dotfiles/config/fish"), { recursive: true });
    symlinkSync("dotfiles/config", join(home, ".config"));
    const host = new RawHost(launch.command, [...launch.args, ...sandboxed], { env: { ...launch.env, HOME: home, PI_SANDBOX_LEDGER_DIR: mkdtempSync(join(root, "ledger-")) }, cwd: home });
    try {
      const output = await bash(
        llm,
        host,
        [
          `(mv dotfiles dotfiles.moved && mkdir -p dotfiles/config/git && printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' > dotfiles/config/git/config && echo GOT:renamed-target) 2>&1`,
          `(mv dotfiles/config dotfiles/config.moved && mkdir -p dotfiles/config/git && echo x > dotfiles/config/git/config && echo GOT:renamed-config) 2>&1`,
          `(rm .config && mkdir -p .config/git && printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' > .config/git/config && echo replaced) 2>&1`,
          "true",
        ].join("\n"),
      );
      assert.doesNotMatch(output, /GOT:/, output);
      // Home holds secrets' places: rebuilt for the sandbox, its top level read-only (home-view.ts).
      assert.doesNotMatch(output, /replaced/, "the link itself cannot be replaced either");
      assert.equal(readlinkSync(join(home, ".config")), "dotfiles/config", `put back when it ended (bash said: ${output})`);
      assert.equal(existsSync(join(home, ".config/git/config")), false, "no global git config");
      assert.equal(existsSync(join(home, "dotfiles.moved")), false);
    } finally {
      await host.stop();
    }
  });

  it("$TMPDIR inside the workspace: the sandboxed bash cannot reach the ledgers (a FIFO hung the host, a dead entry removed the user's empty files)", async () => {
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(launch);
    const tmp = join(launch.cwd, "tmp");
    mkdirSync(tmp);
    const ledger = join(tmp, `pi-sandbox-stubs-${process.getuid?.()}`);
    mkdirSync(join(launch.cwd, "notes"));
    writeFileSync(join(launch.cwd, "notes/.envrc"), ""); // the user's own, empty
    const host = new RawHost(launch.command, [...launch.args, ...sandboxed], { env: { ...launch.env, TMPDIR: tmp, XDG_RUNTIME_DIR: "", PI_SANDBOX_LEDGER_DIR: "" }, cwd: launch.cwd });
    try {
      const planted = await bash(
        llm,
        host,
        [
          `ls ${ledger}/*.json > /dev/null 2>&1 && echo GOT:ledger-readable`, // the host's own entry is there while this runs
          `(mkfifo ${ledger}/4194000.json && echo GOT:fifo) 2>&1`,
          `(ln -s /dev/zero ${ledger}/4194001.json && echo GOT:zero) 2>&1`,
          `(echo '["${join(launch.cwd, "notes/.envrc")}"]' > ${ledger}/4194002.json && echo GOT:dead-entry) 2>&1`,
          "true",
        ].join("\n"),
      );
      assert.doesNotMatch(planted, /GOT:/, planted);
      const next = await Promise.race([bash(llm, host, "echo next"), new Promise<string>((resolve) => setTimeout(() => resolve("TIMED OUT"), 15_000))]);
      assert.match(next, /next/, "the next command runs");
    } finally {
      await host.stop();
    }
    // The next host removes the stubs of dead entries: none planted reaches it.
    const next = new RawHost(launch.command, [...launch.args, ...sandboxed], { env: { ...launch.env, TMPDIR: tmp, XDG_RUNTIME_DIR: "", PI_SANDBOX_LEDGER_DIR: "" }, cwd: launch.cwd });
    try {
      assert.match(await bash(llm, next, "echo again"), /again/);
    } finally {
      await next.stop();
    }
    assert.ok(existsSync(join(launch.cwd, "notes/.envrc")), "the user's empty .envrc stays");
  });

  // Red team on the release once the command's group is gone (process-groups.ts, group-members.ts):
  // a job that leaves the group (setsid), one whose main thread ends first (a zombie leader with a
  // thread running) and one that hops from process to process (each forks the next and exits, so
  // a scan of /proc may find none of them alive). None got the placeholders released early: the
  // sandbox's init, pid 1 of its namespace and in the command's group, waits for all of them.
  it("a job that leaves the command's group, hides behind a zombie leader or hops between processes keeps the placeholders until it ends", async () => {
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(launch);
    const host = new RawHost(launch.command, [...launch.args, ...sandboxed], { env: { ...launch.env, PI_SANDBOX_LEDGER_DIR: mkdtempSync(join(root, "ledger-")) }, cwd: launch.cwd });
    // Each job waits until its command has ended (and the host has looked at the group), then tries to make .envrc and .vscode/tasks.json.
    // Each lingers after trying: the placeholders are looked at while every job still lives (a job
    // that ended at once let the host remove them before the test looked, under load: a test race).
    const attempt = (name: string) => `sleep 2; (echo pwned > .envrc && echo GOT > got-${name}.txt) 2>/dev/null; (mkdir -p .vscode && echo '{}' > .vscode/tasks.json && echo GOT > got-${name}-vscode.txt) 2>/dev/null; echo > tried-${name}.txt; sleep 3`;
    const jobs = {
      setsid: `setsid sh -c '${attempt("setsid")}' > /dev/null 2>&1 < /dev/null &`,
      zombieLeader: `python3 -c 'import ctypes, os, threading, time; threading.Thread(target=lambda: os.system("${attempt("zombie")}")).start(); time.sleep(0.3); ctypes.CDLL(None).pthread_exit(None)' > /dev/null 2>&1 &`,
      hops: `hop() { if [ $1 -gt 0 ]; then (hop $(($1 - 1)) &); else sh -c '${attempt("hops")}'; fi; }; hop 40 > /dev/null 2>&1 &`,
    };
    try {
      for (const [name, job] of Object.entries(jobs)) {
        assert.match(await bash(llm, host, `${job}\necho started`), /started/, name);
      }
      for (const name of ["setsid", "zombie", "hops"]) assert.equal(await until(() => existsSync(join(launch.cwd, `tried-${name}.txt`)), 20_000), true, `the ${name} job tried`);
      assert.deepEqual(readdirSync(launch.cwd).filter((entry) => entry.startsWith("got-")), [], "a job made a protected name");
      assert.equal(readFileSync(join(launch.cwd, ".envrc"), "utf8"), "", "still the empty placeholder");
      assert.equal(existsSync(join(launch.cwd, ".vscode/tasks.json")), false);
    } finally {
      await host.stop();
    }
    assert.equal(await until(() => !existsSync(join(launch.cwd, ".envrc")), 10_000), true, "the placeholders go once the jobs have ended");
  });

  it("a ledger entry that is a FIFO, a link to /dev/zero or huge is no entry: the host neither hangs nor fills its memory", async () => {
    const ledger = mkdtempSync(join(root, "ledger-"));
    execFileSync("mkfifo", [join(ledger, "4194100.json")]);
    symlinkSync("/dev/zero", join(ledger, "4194101.json"));
    writeFileSync(join(ledger, "4194102.json"), `[${'"/x/.git",'.repeat(100_000)}"/x/.git"]`);
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(launch);
    const host = new RawHost(launch.command, [...launch.args, ...sandboxed], { env: { ...launch.env, PI_SANDBOX_LEDGER_DIR: ledger }, cwd: launch.cwd });
    try {
      const run = await Promise.race([bash(llm, host, "echo ran"), new Promise<string>((resolve) => setTimeout(() => resolve("TIMED OUT"), 15_000))]);
      assert.match(run, /ran/);
    } finally {
      await host.stop();
    }
  });

  it("a killed host's pid given to another process since: its entry is still a dead one, its mount points removed", async () => {
    const ledger = mkdtempSync(join(root, "ledger-"));
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(launch);
    execFileSync("git", ["init", "-q", "."], { cwd: launch.cwd });
    const env = { ...launch.env, PI_SANDBOX_LEDGER_DIR: ledger };
    const killed = new RawHost(launch.command, [...launch.args, ...sandboxed], { env, cwd: launch.cwd });
    assert.match(await bash(llm, killed, "(sleep 3023 &) ; echo started"), /started/);
    killed.kill("SIGKILL");
    await killed.exited;
    assert.ok(existsSync(join(launch.cwd, ".vscode")), "the killed host's stubs");
    // The pid reused: a process running now (not ours) under the killed host's entry.
    const other = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      renameSync(join(ledger, `${killed.pid}.json`), join(ledger, `${other.pid}.json`));
      const next = new RawHost(launch.command, [...launch.args, ...sandboxed], { env, cwd: launch.cwd });
      try {
        assert.match(await bash(llm, next, "echo next"), /next/);
      } finally {
        await next.stop();
      }
      assert.deepEqual(readdirSync(launch.cwd).sort(), [".git"], "no stub left");
      assert.deepEqual(readdirSync(ledger), [], "the dead entry went");
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("a second host over a subfolder: its empty .git there is no way into a repository for the first host's job", async () => {
    const { outer, sub, marker, llm2, first, second } = await nestedHosts("sub-fsmonitor-ran");
    try {
      // The second host's job keeps its stubs (an empty pkg/.git among them) for a while.
      assert.match(await bash(llm2, second, "(sleep 20 &) ; echo held"), /held/);
      assert.ok(existsSync(join(sub, ".git")), "the second's stub");
      // The first host's job fills that empty .git with a repository (no new name appears: nothing to watch) and stays.
      const fill = [
        "cd pkg/.git && mkdir -p objects refs/heads && echo 'ref: refs/heads/main' > HEAD",
        `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tfsmonitor = "touch ${marker}; false"\\n' > config && echo GOT > ../../filled.txt`,
      ].join(" && ");
      const output = await bash(llm, first, `(sleep 1; (${fill}); echo > tried.txt; sleep 10) > /dev/null 2>&1 &\necho started`);
      assert.equal(await until(() => existsSync(join(outer.cwd, "tried.txt")), 5_000), true, `the job tried (bash said: ${output.trim()})`);
      assert.equal(existsSync(join(outer.cwd, "filled.txt")), false, "the job could not write into the second's .git");
      // What the editor's git does once it sees pkg/.git/HEAD change (outside any sandbox), while the job runs.
      try {
        execFileSync("git", ["status", "--porcelain"], { cwd: sub, stdio: "ignore", env: { ...process.env, HOME: outer.env.HOME } });
      } catch {
        // only the marker matters
      }
      assert.equal(existsSync(marker), false, `the first host's bash made the second's stub a repository whose fsmonitor ran outside (bash said: ${output.trim()})`);
    } finally {
      await first.stop();
      await second.stop();
      await llm2.close();
    }
  });

  it("a second host over a subfolder started while the first host's job runs: what the job puts into its pkg/.git is moved out, the stub stays mounted", async () => {
    const { outer, sub, marker, llm2, first, second } = await nestedHosts("late-fsmonitor-ran");
    try {
      // The first host's job waits for pkg/.git to appear (the second host's stub, made after the job's sandbox), then fills it.
      const fill = `cd pkg/.git && mkdir -p objects refs/heads && echo 'ref: refs/heads/main' > HEAD && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tfsmonitor = "touch ${marker}; false"\\n' > config`;
      assert.match(await bash(llm, first, `(for i in $(seq 100); do [ -d pkg/.git ] && break; sleep 0.1; done; (${fill}); echo 'script-shell=/tmp/evil.sh' > pkg/.npmrc; echo > tried.txt; sleep 15) > /dev/null 2>&1 &\necho started`), /started/);
      assert.match(await bash(llm2, second, "(sleep 20 &) ; echo held"), /held/);
      assert.equal(await until(() => existsSync(join(outer.cwd, "tried.txt")), 10_000), true, "the job tried");
      await new Promise((resolve) => setTimeout(resolve, 300)); // the editor's git looks 500 ms after a change
      try {
        execFileSync("git", ["status", "--porcelain"], { cwd: sub, stdio: "ignore", env: { ...process.env, HOME: outer.env.HOME } });
      } catch {
        // only the marker matters
      }
      assert.equal(existsSync(marker), false, "the second host's stub became a repository whose fsmonitor ran outside");
      assert.deepEqual(readdirSync(join(sub, ".git")), [], "what the job made in it moved out, the stub left");
      assert.equal(readFileSync(join(sub, ".npmrc"), "utf8"), "", "what the job wrote into its .npmrc stub moved out too");
      // Still the second sandbox's mount: its commands cannot make .git there.
      assert.doesNotMatch(await bash(llm2, second, "(mkdir .git/x && echo GOT) 2>&1; true"), /GOT/);
    } finally {
      await first.stop();
      await second.stop();
      await llm2.close();
    }
  });

  it("a ledger folder another user made first: a second host still leaves the first's mount points while its job runs", async function () {
    if (process.getuid?.() !== 0) this.skip(); // giving a folder to another user takes root
    // No $XDG_RUNTIME_DIR (an ssh login, a container): the ledger's place is <tmp>/pi-sandbox-stubs-<uid>, made by someone else.
    const tmp = mkdtempSync(join(root, "tmp-"));
    const taken = join(tmp, `pi-sandbox-stubs-${process.getuid?.()}`);
    mkdirSync(taken, { mode: 0o755 });
    chownSync(taken, 65534, 65534);
    const env = { TMPDIR: tmp, XDG_RUNTIME_DIR: "", PI_SANDBOX_LEDGER_DIR: "" };
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(launch);
    execFileSync("git", ["init", "-q", "."], { cwd: launch.cwd });
    const first = new RawHost(launch.command, [...launch.args, ...sandboxed], { env: { ...launch.env, ...env }, cwd: launch.cwd });
    const llm2 = await startMockLlm();
    try {
      const secondLaunch = peerLaunch("host", { mockBaseUrl: llm2.baseUrl, cwd: launch.cwd });
      launches.push(secondLaunch);
      const second = new RawHost(secondLaunch.command, [...secondLaunch.args, ...sandboxed], { env: { ...secondLaunch.env, ...env }, cwd: launch.cwd });
      const secondRun = bash(llm2, second, "sleep 1; echo second");
      assert.equal(await until(() => existsSync(join(launch.cwd, ".vscode"))), true, "the second's mount point");
      const job = "(sleep 3; mkdir -p .vscode 2>/dev/null; echo '{}' > .vscode/tasks.json 2>/dev/null && echo GOT > got.txt) > /dev/null 2>&1 &";
      assert.match(await bash(llm, first, `${job} echo first`), /first/);
      assert.match(await secondRun, /second/);
      await second.stop();
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      assert.equal(existsSync(join(launch.cwd, "got.txt")), false, "the first's job could not make .vscode/tasks.json");
      assert.equal(existsSync(join(launch.cwd, ".vscode/tasks.json")), false);
    } finally {
      await first.stop();
      await llm2.close();
    }
    assert.deepEqual(readdirSync(taken), [], "nothing written into the other user's folder");
    assert.equal(readFileSync(join(launch.cwd, ".git/HEAD"), "utf8").startsWith("ref:"), true);
  });
});

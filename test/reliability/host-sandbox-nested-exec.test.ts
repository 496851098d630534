// Attack (#30 hostile review): what the sandbox leaves writable that runs later outside it. The
// sandbox keeps protected names read-only only at the top of a writable root (.git, .vscode, …), by
// mounting them. Two ways around that, each by the model's own sandboxed bash:
//  - a nested repository: `sub/.git/config` with core.fsmonitor. The editor's git finds nested
//    repositories by itself (git.autoRepositoryDetection, a watcher on created .git folders) and runs
//    `git status` there, outside any sandbox; the test runs the same `git status`.
//  - a protected name that is a symlink (a repository may ship `.vscode -> config/vscode`): the
//    mount lands on the link's target, the link itself stays in the writable workspace, so the
//    command replaces it with a real `.vscode/` holding a tasks.json.
// Both failed before the fix (test/open-holes); so did the payloads of the same class below. The fix:
// protected names at any depth are mounted read-only when a command starts, and what a command made
// of one (or a symlinked one it replaced) is moved aside into the agent dir's quarantine when it ends.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost, type Frame } from "./raw-host";

let ids = 0;
const nextId = () => `n${++ids}`;

/** The text of the first tool result from frame `from` on. */
function resultText(host: RawHost, from: number): string {
  const end = host.frames.slice(from).find((f) => f.type === "tool_execution_end") as (Frame & { result: { content: { text?: string }[] } }) | undefined;
  return end?.result.content.map((c) => c.text ?? "").join("") ?? "";
}

async function bash(llm: MockLlm, host: RawHost, command: string): Promise<string> {
  llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
  const { from } = await host.promptAnswering(nextId(), "run it", () => "Deny");
  return resultText(host, from);
}

describe("agent host: nothing the sandboxed bash writes is run later outside the sandbox", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let host: RawHost;
  let outside: string;

  before(async () => {
    llm = await startMockLlm();
    outside = mkdtempSync(join(tmpdir(), "nested-exec-"));
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    execFileSync("git", ["init", "-q", "."], { cwd: launch.cwd });
    mkdirSync(join(launch.cwd, "config/vscode"), { recursive: true });
    writeFileSync(join(launch.cwd, "config/vscode/settings.json"), "{}\n");
    symlinkSync("config/vscode", join(launch.cwd, ".vscode"));
    // An existing nested repository (a vendored library).
    execFileSync("git", ["init", "-q", "vendor/lib"], { cwd: launch.cwd });
    host = new RawHost(launch.command, [...launch.args, "--sandbox", "workspace-write", "--permission-mode", "auto"], { env: launch.env, cwd: launch.cwd });
    await host.request({ id: nextId(), type: "set_auto_retry", enabled: false });
  });
  after(async () => {
    await host.stop();
    await llm.close();
    launch.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  it("a nested repository's core.fsmonitor does not run when git (the editor's) looks at it from outside", async () => {
    const marker = join(outside, "fsmonitor-ran");
    const output = await bash(llm, host, `git init -q sub && printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' >> sub/.git/config && echo planted`);
    // What the editor's git does when it finds the repository (outside any sandbox).
    try {
      execFileSync("git", ["status", "--porcelain"], { cwd: join(launch.cwd, "sub"), stdio: "ignore", env: { ...process.env, HOME: launch.env.HOME } });
    } catch {
      // the status itself may fail; what matters is whether the hook ran
    }
    assert.equal(existsSync(marker), false, `the sandboxed bash planted a nested repository whose fsmonitor ran outside (bash said: ${output.trim()})`);
  });

  it("a protected name that is a symlink cannot be replaced by a real folder", async () => {
    const output = await bash(llm, host, "rm .vscode && mkdir .vscode && echo '{\"version\":\"2.0.0\",\"tasks\":[]}' > .vscode/tasks.json && echo replaced");
    assert.equal(existsSync(join(launch.cwd, ".vscode/tasks.json")), false, `the sandboxed bash replaced the .vscode symlink with a real folder (bash said: ${output.trim()})`);
    assert.equal(readlinkSync(join(launch.cwd, ".vscode")), "config/vscode", "the symlink is put back");
  });

  /** git status run as the editor's git would, in `dir`: whether the marker appeared. */
  function gitStatusRuns(dir: string, marker: string): boolean {
    try {
      execFileSync("git", ["status", "--porcelain"], { cwd: join(launch.cwd, dir), stdio: "ignore", env: { ...process.env, HOME: launch.env.HOME } });
    } catch {
      // only the marker matters
    }
    return existsSync(marker);
  }
  const fsmonitor = (marker: string) => `printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n'`;

  it("a nested .git that is a gitfile pointing at a git dir the command wrote is moved aside", async () => {
    const marker = join(outside, "gitfile-ran");
    const output = await bash(llm, host, `git init -q --separate-git-dir=gd sub2 && ${fsmonitor(marker)} >> gd/config && echo planted`);
    assert.match(output, /planted/, "the attack itself ran");
    assert.equal(gitStatusRuns("sub2", marker), false, `bash said: ${output}`);
    assert.equal(existsSync(join(launch.cwd, "sub2/.git")), false);
  });

  it("a .git made by mv of a prepared folder, and a .git symlink, are moved aside", async () => {
    const marker = join(outside, "mv-ran");
    const output = await bash(
      llm,
      host,
      `git init -q --bare x/repo && git --git-dir=x/repo config core.bare false && ${fsmonitor(marker)} >> x/repo/config && cp -r x/repo x2 && mkdir sub3 sub4 && mv x/repo sub3/.git && ln -s ../x2 sub4/.git && echo planted`,
    );
    assert.match(output, /planted/, "the attack itself ran");
    assert.equal(gitStatusRuns("sub3", marker) || gitStatusRuns("sub4", marker), false, `bash said: ${output}`);
    assert.match(output, /moved '.*sub3\/\.git' -> /, `the model is told what was moved aside: ${output}`);
  });

  it("a .vscode two levels down (a folder the editor may open) is moved aside, and the user is told with a way back", async () => {
    const from = host.frames.length;
    const output = await bash(llm, host, `mkdir -p apps/web/prep && echo '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"touch pwned","runOptions":{"runOn":"folderOpen"}}]}' > apps/web/prep/tasks.json && mv apps/web/prep apps/web/.vscode && echo planted`);
    assert.match(output, /planted/, "the attack itself ran");
    assert.equal(existsSync(join(launch.cwd, "apps/web/.vscode")), false, output);
    const notice = host.frames.slice(from).find((f) => f.type === "extension_ui_request" && f.method === "notify" && String(f.message).includes("apps/web/.vscode"));
    assert.ok(notice, `the user gets a notice (bash said: ${output})`);
    // The way back the notice gives works.
    const restore = /mv -T ('[^']+') ('[^']+')/.exec(output);
    assert.ok(restore, `the model is told the way back: ${output}`);
    execFileSync("/bin/sh", ["-c", `mv -T ${restore[1]} ${restore[2]}`]);
    assert.ok(existsSync(join(launch.cwd, "apps/web/.vscode/tasks.json")), `restored: ${output}`);
    const record = JSON.parse(readFileSync(join(restore[1].slice(1, -1), "../moved.json"), "utf8")) as { from: string }[];
    assert.ok(record.some((m) => m.from.endsWith("apps/web/.vscode")));
  });

  it("an existing nested repository's config and hooks are read-only (core.hooksPath, core.fsmonitor, a hook)", async () => {
    const config = join(launch.cwd, "vendor/lib/.git/config");
    const before = readFileSync(config, "utf8");
    const output = await bash(llm, host, `git -C vendor/lib config core.hooksPath ../../hooks; ${fsmonitor("/tmp/x")} >> vendor/lib/.git/config; echo 'touch pwned' > vendor/lib/.git/hooks/pre-commit; rm -rf vendor/lib/.git; echo tried`);
    assert.equal(readFileSync(config, "utf8"), before, output);
    assert.equal(existsSync(join(launch.cwd, "vendor/lib/.git/hooks/pre-commit")), false, output);
  });

  it("moving an existing nested repository's folder keeps it (same repository), a fresh .git in its place is moved aside", async () => {
    const marker = join(outside, "swap-ran");
    const output = await bash(llm, host, `mv vendor/lib vendor/lib-old && echo moved; git init -q vendor/lib; ${fsmonitor(marker)} >> vendor/lib/.git/config; echo swapped`);
    assert.match(output, /moved/, "the attack itself ran");
    assert.equal(gitStatusRuns("vendor/lib", marker), false, output);
    assert.ok(lstatSync(join(launch.cwd, "vendor/lib-old/.git")).isDirectory(), "the moved repository is left alone");
    assert.doesNotMatch(output, /lib-old/);
  });

  it("while the command still runs: a nested repository is moved aside before the editor's git (500 ms after it appeared) looks at it", async () => {
    const marker = join(outside, "while-running-ran");
    llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: `git init -q sub6 && ${fsmonitor(marker)} >> sub6/.git/config; echo planted; sleep 4` } }] }, { text: "done" });
    const running = host.promptAnswering(nextId(), "run it", () => "Deny");
    // As the editor's git does: it sees .git appear, waits 500 ms, runs git status there.
    const deadline = Date.now() + 10_000;
    while (!existsSync(join(launch.cwd, "sub6")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 600));
    const ran = gitStatusRuns("sub6", marker);
    const output = resultText(host, (await running).from);
    assert.equal(ran, false, `the nested repository's fsmonitor ran while the command was still running (bash said: ${output})`);
    assert.match(output, /moved '.*sub6\/\.git'/);
  });

  it("a nested repository in a folder the command then made read-only (chmod 555) is moved aside all the same", async () => {
    const marker = join(outside, "chmod-ran");
    const output = await bash(llm, host, `git init -q --bare prep && git --git-dir=prep config core.bare false && ${fsmonitor(marker)} >> prep/config && mkdir locked && mv prep locked/.git && chmod 555 locked && echo planted`);
    assert.match(output, /planted/, "the attack itself ran");
    assert.equal(gitStatusRuns("locked", marker), false, output);
    assert.doesNotMatch(output, /NOT moved aside/);
  });

  it("a command that makes no protected path is told nothing", async () => {
    const output = await bash(llm, host, "mkdir -p src/deep && echo hi > src/deep/a.txt && echo ok");
    assert.doesNotMatch(output, /sandbox:/);
  });
});

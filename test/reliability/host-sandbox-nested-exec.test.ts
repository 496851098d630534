// Attack (#30 hostile review): what the sandbox leaves writable that runs later outside it. The
// sandbox keeps protected names read-only only at the top of a writable root (.git, .vscode, …), by
// mounting them. Two ways around that, each by the model's own sandboxed bash:
//  - a nested repository: `sub/.git/config` with core.fsmonitor. The editor's git finds nested
//    repositories by itself (git.autoRepositoryDetection, a watcher on created .git folders) and runs
//    `git status` there, outside any sandbox; the test runs the same `git status`.
//  - a protected name that is a symlink (a repository may ship `.vscode -> config/vscode`): the
//    mount lands on the link's target, the link itself stays in the writable workspace, so the
//    command replaces it with a real `.vscode/` holding a tasks.json.
// Both tests fail on the current code (holes described in the report; no fix here).
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost, type Frame } from "./raw-host";

let ids = 0;
const nextId = () => `n${++ids}`;

async function bash(llm: MockLlm, host: RawHost, command: string): Promise<string> {
  llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
  const { from } = await host.promptAnswering(nextId(), "run it", () => "Deny");
  const end = host.frames.slice(from).find((f) => f.type === "tool_execution_end") as (Frame & { result: { content: { text?: string }[] } }) | undefined;
  return end?.result.content.map((c) => c.text ?? "").join("") ?? "";
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
  });
});

// The sandbox of the agent's commands, for real (bubblewrap), through the host over RPC with the
// scripted LLM. One probe script tries every way out; run by a host without --sandbox (the control)
// each attempt succeeds, run by a host with --sandbox workspace-write none does: it cannot write
// outside the workspace, into .git/ or create .vscode/tasks.json, cannot read its ancestors'
// /proc/<pid>/environ (the key the host took out of its own environment) or ~/.ssh, cannot reach a
// loopback server started outside. Inside the workspace it works as usual (a build-like command, a
// background job, killed when the host ends). "Run outside the sandbox" asks with the whole
// command: denied, nothing ran; allowed, it ran. Where bwrap cannot run, every command is asked.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost, until, type Frame } from "./raw-host";

let ids = 0;
const nextId = () => `s${++ids}`;
const SECRET = "sk-sandbox-test-0123456789abcdef";
const SSH_KEY = "-----BEGIN OPENSSH PRIVATE KEY----- sandbox-test-key";

interface BashRun {
  output: string;
  isError: boolean;
  questions: string[];
  notices: string[];
}

/** One bash call by the model; `answer` picks the reply to each select dialog (undefined: cancel). */
async function bash(llm: MockLlm, host: RawHost, command: string, answer: (title: string) => string | undefined = () => undefined): Promise<BashRun> {
  llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" });
  const { questions, from } = await host.promptAnswering(nextId(), "run it", answer);
  const end = host.frames.slice(from).find((f) => f.type === "tool_execution_end") as (Frame & { result: { content: { text?: string }[] }; isError: boolean }) | undefined;
  assert.ok(end, "the bash tool ran");
  const notices = host.frames.slice(from).filter((f) => f.type === "extension_ui_request" && f.method === "notify").map((f) => String(f.message));
  return { output: end.result.content.map((c) => c.text ?? "").join(""), isError: end.isError, questions, notices };
}

describe("agent host: the sandbox of the agent's commands (bubblewrap)", function () {
  this.timeout(180_000);
  let llm: MockLlm;
  let server: Server;
  let port: number;
  let root: string;
  const launches: PeerLaunch[] = [];

  before(async () => {
    llm = await startMockLlm();
    server = createServer((socket) => socket.end("hello from outside\n"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
    root = mkdtempSync(join(tmpdir(), "sandbox-test-"));
  });
  after(async () => {
    await llm.close();
    server.close();
    for (const launch of launches) launch.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  /** A host over a fresh workspace (a git repository) whose HOME holds ~/.ssh/id_rsa; the key in PI_SECRET_ENV. */
  const startHost = async (extraArgs: string[], env: Record<string, string> = {}) => {
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(launch);
    execFileSync("git", ["init", "-q", "."], { cwd: launch.cwd });
    writeFileSync(join(launch.cwd, "main.c"), "int main(void) { return 0; }\n");
    const home = launch.env.HOME;
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(home, ".ssh", "id_rsa"), `${SSH_KEY}\n`, { mode: 0o600 });
    const hostEnv = { ...launch.env, SANDBOX_TEST_KEY: SECRET, PI_SECRET_ENV: "SANDBOX_TEST_KEY", ...env };
    const host = new RawHost(launch.command, [...launch.args, ...extraArgs], { env: hostEnv, cwd: launch.cwd });
    await host.request({ id: nextId(), type: "set_auto_retry", enabled: false });
    return { host, launch };
  };

  const stop = (host: RawHost) => host.stop();

  /** Each line is printed only when its attempt got through. */
  const probeScript = (outside: string) => [
    `echo x > ${outside} && echo GOT:write-outside`,
    `printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' >> .git/config && echo GOT:write-git-config`,
    `echo 'echo pwned' > .git/hooks/pre-commit && echo GOT:create-git-hook`,
    `mkdir -p .vscode && echo '{"tasks":[]}' > .vscode/tasks.json && echo GOT:create-vscode-tasks`,
    // Walk up from $$: any ancestor's environ with the key the host took out of its own environment.
    `p=$PPID; while [ "$p" -gt 1 ] 2>/dev/null; do grep -qa ${SECRET} /proc/$p/environ 2>/dev/null && { echo GOT:ancestor-environ; break; }; p=$(cut -d' ' -f4 /proc/$p/stat 2>/dev/null || echo 0); done`,
    `grep -q sandbox-test-key ~/.ssh/id_rsa 2>/dev/null && echo GOT:read-ssh-key`,
    `(exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3 | grep -q hello && echo GOT:reach-loopback) 2>/dev/null`,
    "true",
  ].join("\n");
  const escapes = ["write-outside", "write-git-config", "create-git-hook", "create-vscode-tasks", "ancestor-environ", "read-ssh-key", "reach-loopback"];
  const got = (output: string) => escapes.filter((name) => output.includes(`GOT:${name}`));

  it("lets the control (no sandbox) out every way, and the sandboxed bash none; the workspace still works", async () => {
    // The control: the same script, a host without --sandbox.
    const control = await startHost([]);
    const controlRun = await bash(llm, control.host, probeScript(join(root, "control-outside.txt")));
    await stop(control.host);
    assert.deepEqual(got(controlRun.output), escapes, `the control gets out every way:\n${controlRun.output}`);

    const started = Date.now();
    const { host, launch } = await startHost(["--sandbox", "workspace-write", "--permission-mode", "auto"]);
    const outside = join(root, "sandboxed-outside.txt");
    const run = await bash(llm, host, `${probeScript(outside)}\nexit 1`, () => "Deny");
    assert.deepEqual(got(run.output), [], `the sandboxed bash got out:\n${run.output}`);
    assert.equal(existsSync(outside), false);
    assert.doesNotMatch(readFileSync(join(launch.cwd, ".git/config"), "utf8"), /fsmonitor/);
    assert.equal(existsSync(join(launch.cwd, ".git/hooks/pre-commit")), false);
    assert.equal(existsSync(join(launch.cwd, ".vscode/tasks.json")), false);
    assert.ok(!run.output.includes(SECRET) && !run.output.includes(SSH_KEY), "nothing secret in the output");

    // Inside the workspace, as usual: a build-like command, git reading its repository, a background job.
    const build = await bash(llm, host, "mkdir -p build && cc -c main.c -o build/main.o 2>/dev/null || cp main.c build/main.o; ls build; git status --short | sort; (sleep 3017 &) ; echo built");
    assert.equal(build.isError, false, build.output);
    assert.match(build.output, /main\.o/);
    assert.match(build.output, /^\?\? build\/$/m);
    assert.match(build.output, /^\?\? main\.c$/m);
    assert.deepEqual(build.questions, [], "nothing asked when nothing was refused");
    assert.ok(pgrep("sleep 3017").length > 0, "the background job runs after the command");
    await stop(host);
    assert.equal(await until(() => pgrep("sleep 3017").length === 0), true, "the background job ended with the host");
    const left = readdirSync(launch.cwd).sort();
    assert.deepEqual(left, [".git", "build", "main.c"], "the mount points of missing protected paths are gone");
    console.log(`      figures: escapes tried ${escapes.length}, control got ${got(controlRun.output).length}/${escapes.length}, sandboxed got ${got(run.output).length}/${escapes.length}, sandboxed session ${Date.now() - started} ms, stubs left ${left.length - 3}`);
  });

  it("a host killed while a sandboxed job runs leaves the mount points of missing protected paths; the next host removes them", async () => {
    const ledger = mkdtempSync(join(root, "ledger-"));
    const { host, launch } = await startHost(["--sandbox", "workspace-write", "--permission-mode", "auto"], { PI_SANDBOX_LEDGER_DIR: ledger });
    const job = await bash(llm, host, "(sleep 3019 &) ; echo started");
    assert.match(job.output, /started/);
    // While the job runs, bwrap's mount points are real entries on the host (.vscode is missing in this workspace).
    assert.ok(existsSync(join(launch.cwd, ".vscode")), "a stub while the job runs");
    assert.ok(pgrep("sleep 3019").length > 0, "the job runs");
    host.kill("SIGKILL");
    await host.exited;
    assert.equal(await until(() => pgrep("sleep 3019").length === 0), true, "the job ended with the host");
    assert.ok(existsSync(join(launch.cwd, ".vscode")), "nobody released the killed host's stubs");
    const stubsAfterKill = readdirSync(launch.cwd).length - 2;

    // The next host over the same folder: at its first sandboxed command the dead host's stubs go, then its own.
    const env = { ...launch.env, PI_SANDBOX_LEDGER_DIR: ledger };
    const next = new RawHost(launch.command, [...launch.args, "--sandbox", "workspace-write", "--permission-mode", "auto"], { env, cwd: launch.cwd });
    const run = await bash(llm, next, "ls -A");
    assert.equal(run.isError, false, run.output);
    await stop(next);
    const left = readdirSync(launch.cwd).sort();
    assert.deepEqual(left, [".git", "main.c"], "no stub left in the user's folder");
    assert.deepEqual(readdirSync(ledger), [], "no ledger left");
    console.log(`      figures: stubs left by the killed host ${stubsAfterKill}, left after the next host ${left.length - 2}`);
  });

  it("two hosts over one folder: the mount points one made stay while the other's sandbox still mounts them", async () => {
    const ledger = mkdtempSync(join(root, "ledger-"));
    const sandboxed = ["--sandbox", "workspace-write", "--permission-mode", "auto"];
    const { host: first, launch } = await startHost(sandboxed, { PI_SANDBOX_LEDGER_DIR: ledger });
    const llm2 = await startMockLlm();
    try {
      const secondLaunch = peerLaunch("host", { mockBaseUrl: llm2.baseUrl, cwd: launch.cwd });
      launches.push(secondLaunch);
      const second = new RawHost(secondLaunch.command, [...secondLaunch.args, ...sandboxed], { env: { ...secondLaunch.env, PI_SANDBOX_LEDGER_DIR: ledger }, cwd: launch.cwd });
      // The second host's command makes the mount points; the first's starts while they are there,
      // leaves a job that tries to make .vscode/tasks.json once the second host is gone.
      const secondRun = bash(llm2, second, "sleep 1; echo second");
      assert.equal(await until(() => existsSync(join(launch.cwd, ".vscode"))), true, "the second's mount point");
      const job = "(sleep 3; mkdir -p .vscode 2>/dev/null; echo '{}' > .vscode/tasks.json 2>/dev/null && echo GOT > got.txt) > /dev/null 2>&1 &";
      const firstRun = await bash(llm, first, `${job} echo first`);
      assert.match(firstRun.output, /first/);
      assert.match((await secondRun).output, /second/);
      await stop(second);
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      assert.equal(existsSync(join(launch.cwd, "got.txt")), false, "the first's job could not make .vscode/tasks.json");
      assert.equal(existsSync(join(launch.cwd, ".vscode/tasks.json")), false);
      await stop(first);
      assert.deepEqual(readdirSync(launch.cwd).sort(), [".git", "main.c"], "no stub left once both are gone");
    } finally {
      await llm2.close();
    }
  });

  it("takes no ledger of stubs from a folder another user could write: the user's own empty protected file stays", async () => {
    const planted = mkdtempSync(join(root, "planted-"));
    chmodSync(planted, 0o777);
    const { host, launch } = await startHost(["--sandbox", "workspace-write", "--permission-mode", "auto"], { PI_SANDBOX_LEDGER_DIR: planted });
    writeFileSync(join(launch.cwd, ".envrc"), "");
    // A ledger of a process that is gone (pid 2^22 + 1 is above Linux's pid limit), naming the user's file.
    writeFileSync(join(planted, "4194305.json"), JSON.stringify([join(launch.cwd, ".envrc")]));
    const run = await bash(llm, host, "true");
    assert.equal(run.isError, false, run.output);
    await stop(host);
    assert.ok(existsSync(join(launch.cwd, ".envrc")), "the user's empty .envrc stays");
    assert.deepEqual(readdirSync(planted), ["4194305.json"], "the planted ledger was not read");
  });

  it("asks before running a refused command outside the sandbox, with the whole command: denied, nothing ran; allowed, it ran", async () => {
    const { host, launch } = await startHost(["--sandbox", "workspace-write", "--permission-mode", "auto"]);
    // In the home (read-only inside); a path under the host's /tmp is asked too (the sandbox has a /tmp of its own).
    const target = join(launch.env.HOME, "outside-ran.txt");
    const command = `echo ran-outside > ${target}`;
    const denied = await bash(llm, host, command, () => "Deny");
    assert.equal(denied.questions.length, 1);
    assert.ok(denied.questions[0].includes(command), `the question shows the whole command: ${denied.questions[0]}`);
    assert.equal(existsSync(target), false, "denied: nothing ran outside");
    assert.match(denied.output, /outside the sandbox was denied/);
    assert.equal(denied.isError, true);

    const allowed = await bash(llm, host, command, () => "Run outside the sandbox once");
    assert.equal(allowed.questions.length, 1);
    assert.equal(readFileSync(target, "utf8"), "ran-outside\n", "allowed: it ran");
    assert.equal(allowed.isError, false);
    assert.match(allowed.output, /allowed running it again outside the sandbox/);

    // No answer (the dialog cancelled): denied.
    rmSync(target);
    const cancelled = await bash(llm, host, command);
    assert.equal(existsSync(target), false);
    assert.equal(cancelled.questions.length, 1, cancelled.output);
    await stop(host);
  });

  it("where bubblewrap cannot run: says so once, and asks before every command (no silent fallback)", async () => {
    const { host, launch } = await startHost(["--sandbox", "workspace-write", "--permission-mode", "auto"], { PI_SANDBOX_BWRAP: "/nonexistent/bwrap" });
    const denied = await bash(llm, host, "echo ran > ran.txt", () => "Deny");
    assert.equal(existsSync(join(launch.cwd, "ran.txt")), false, "denied: nothing ran");
    assert.equal(denied.questions.length, 1);
    assert.match(denied.questions[0], /cannot run here[\s\S]*echo ran > ran\.txt/);
    assert.equal(denied.notices.length, 1, "the client is told");
    const allowed = await bash(llm, host, "echo ran > ran.txt", () => "Run without the sandbox once");
    assert.equal(readFileSync(join(launch.cwd, "ran.txt"), "utf8"), "ran\n");
    assert.equal(allowed.questions.length, 1, "asked again: an earlier yes covers nothing");
    assert.equal(allowed.notices.length, 0, "told once only");
    await stop(host);
  });
});

function pgrep(pattern: string): string[] {
  try {
    return execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

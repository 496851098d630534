// Attack (session 19's review of the sandbox's doors): in Full auto the bundled host asked nothing,
// and its own write and edit tools run in the host's process, outside the sandbox. The sandbox kept
// `.git/config` read-only for bash, but the model wrote it with `write` (core.fsmonitor, which the
// editor's git runs by itself, outside any sandbox): a sandbox escape in one call. Now, under a
// sandbox, a protected write is asked in every mode (with nobody to ask, refused). Real bundled
// host over RPC, real bubblewrap, the scripted LLM.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm, type MockToolCall } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost, type Frame } from "./raw-host";

let ids = 0;
const nextId = () => `a${++ids}`;
const FSMONITOR = "[core]\n\tfsmonitor = touch /tmp/pwned-in-auto\n";

describe("agent host in Full auto under a sandbox: no protected write unasked", function () {
  this.timeout(180_000);
  let llm: MockLlm;
  const launches: PeerLaunch[] = [];
  const hosts: RawHost[] = [];

  before(async () => {
    llm = await startMockLlm();
  });
  after(async () => {
    for (const host of hosts) await host.stop();
    await llm.close();
    for (const launch of launches) launch.cleanup();
  });

  async function hostWith(extra: string[]): Promise<{ host: RawHost; cwd: string }> {
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    launches.push(launch);
    execFileSync("git", ["init", "-q", "."], { cwd: launch.cwd });
    const host = new RawHost(launch.command, [...launch.args, "--permission-mode", "auto", "--workspace-only", ...extra], { env: launch.env, cwd: launch.cwd });
    hosts.push(host);
    await host.request({ id: nextId(), type: "set_auto_retry", enabled: false });
    return { host, cwd: launch.cwd };
  }

  async function turn(host: RawHost, calls: MockToolCall[], answer: (title: string) => string | undefined) {
    llm.enqueue(...calls.map((call) => ({ toolCalls: [call] })), { text: "done" });
    const { questions, from } = await host.promptAnswering(nextId(), "go", answer);
    const ends = host.frames.slice(from).filter((f) => f.type === "tool_execution_end") as (Frame & { result: { content: { text?: string }[] } })[];
    return { questions, results: ends.map((end) => end.result.content.map((c) => c.text ?? "").join("")) };
  }

  const gitConfig = (cwd: string) => readFileSync(join(cwd, ".git/config"), "utf8");

  it("asks, with the whole change, before write or edit touch a protected file; other writes and commands stay unasked", async () => {
    const { host, cwd } = await hostWith(["--sandbox", "workspace-write", "--confirm-tools", "bash,edit,write"]);
    const before = gitConfig(cwd);
    const run = await turn(
      host,
      [
        { name: "write", arguments: { path: ".git/config", content: FSMONITOR } },
        { name: "edit", arguments: { path: ".git/config", edits: [{ oldText: "[core]", newText: FSMONITOR }] } },
        { name: "write", arguments: { path: "sub/.VSCode/tasks.json", content: '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}' } },
        { name: "write", arguments: { path: "notes.txt", content: "notes\n" } },
        { name: "bash", arguments: { command: "echo ran > ran.txt" } },
      ],
      () => "Deny",
    );
    assert.equal(gitConfig(cwd), before, `.git/config was written in Full auto:\n${run.results.join("\n")}`);
    assert.ok(!existsSync(join(cwd, "sub/.VSCode/tasks.json")), "a nested .VSCode/tasks.json was written");
    assert.equal(run.questions.length, 3, run.questions.join("\n---\n"));
    assert.match(run.questions[0] ?? "", /^Allow write of a protected file: \.git\/config\n[^]*fsmonitor = touch \/tmp\/pwned-in-auto/);
    assert.match(run.questions[1] ?? "", /^Allow edit of a protected file: \.git\/config/);
    assert.match(run.questions[2] ?? "", /^Allow write of a protected file: sub\/\.VSCode\/tasks\.json/);
    assert.equal(readFileSync(join(cwd, "notes.txt"), "utf8"), "notes\n");
    assert.equal(readFileSync(join(cwd, "ran.txt"), "utf8"), "ran\n");
  });

  it("in a read-only sandbox, asks every write (commands may write nothing there; write runs outside it)", async () => {
    const { host, cwd } = await hostWith(["--sandbox", "read-only", "--confirm-tools", "bash,edit,write"]);
    const run = await turn(host, [{ name: "write", arguments: { path: "notes.txt", content: "notes\n" } }], () => "Deny");
    assert.equal(run.questions.length, 1, run.results.join("\n"));
    assert.match(run.questions[0] ?? "", /^Allow write in a read-only sandbox: notes\.txt\n/);
    assert.ok(!existsSync(join(cwd, "notes.txt")), "written in a read-only sandbox");
  });

  it("with nobody to ask (no confirm tools), refuses the protected write", async () => {
    const { host, cwd } = await hostWith(["--sandbox", "workspace-write"]);
    const before = gitConfig(cwd);
    const run = await turn(host, [{ name: "write", arguments: { path: ".git/config", content: FSMONITOR } }], () => "Allow once");
    assert.deepEqual(run.questions, []);
    assert.equal(gitConfig(cwd), before);
    assert.match(run.results[0] ?? "", /Refused: \.git\/config leads to the protected file .*did not allow/);
  });

  it("without a sandbox (full access), Full auto stays the user's choice: written unasked", async () => {
    const { host, cwd } = await hostWith(["--sandbox", "full-access", "--confirm-tools", "bash,edit,write"]);
    const run = await turn(host, [{ name: "write", arguments: { path: ".git/config", content: `${gitConfig(cwd)}# by the agent\n` } }], () => "Deny");
    assert.deepEqual(run.questions, []);
    assert.match(gitConfig(cwd), /# by the agent\n$/, run.results.join("\n"));
  });
});

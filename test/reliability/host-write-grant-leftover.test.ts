// Attack (session 19, after 2a75163): the check at the write (protected-write-check.ts) lets a
// protected file be written when the user allowed *a* write of that file once, whichever call uses
// the allowance. An approved call that fails before it writes leaves its allowance unused: the model
// asks for an edit of .git/config that cannot apply (its old text is not in the file: the question
// shows it as sent, a harmless-looking change), the user allows it once, the edit fails. Later, an
// approved `write notes.txt` whose file a sandboxed background job swapped for a symlink to
// .git/config while the question was open (host-write-swap's attack, refused there) takes that
// leftover allowance, and core.fsmonitor lands in .git/config: content the user never saw. Failed
// on `next` at 2a75163: an approval is now for the call it was asked for. Real bundled host over RPC, real bubblewrap, the scripted LLM.
import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost, until, type Frame } from "./raw-host";

/** Where the symlink at `path` points; undefined while it is not one. */
function linkTargetOf(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

describe("agent host: an allowance of a protected write that was not used is not good for another call", function () {
  this.timeout(180_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let host: RawHost;
  // Ask mode (the default), the sandbox on: each call of bash, edit and write is asked.
  const hostArgs = ["--sandbox", "workspace-write", "--confirm-tools", "bash,edit,write", "--workspace-only"];

  before(async () => {
    [llm] = [await startMockLlm()];
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    execFileSync("git", ["init", "-q", "."], { cwd: launch.cwd });
    host = new RawHost(launch.command, [...launch.args, ...hostArgs], { env: launch.env, cwd: launch.cwd });
    await host.request({ id: "g1", type: "set_auto_retry", enabled: false });
  });
  after(async () => {
    await Promise.all([host.stop(), llm.close()]);
    launch.cleanup();
  });

  it("a failed, approved edit of .git/config does not let a later swapped write land there", async () => {
    const cwd = launch.cwd;
    const marker = join(launch.cwd, "..", "ran"); // beside the workspace, removed with the launch
    const payload = `[core]\n\tfsmonitor = touch ${marker}\n`;
    const pristine = readFileSync(join(cwd, ".git/config"), "utf8");
    writeFileSync(join(cwd, "notes.txt"), "notes\n");
    llm.enqueue(
      { toolCalls: [{ name: "bash", arguments: { command: "(while [ ! -e go ]; do sleep 0.05; done; ln -sfn .git/config notes.txt.new && mv -T notes.txt.new notes.txt) >/dev/null 2>&1 &" } }] },
      // Not in the file (git init wrote filemode = true): the edit fails in the tool, after the question.
      { toolCalls: [{ name: "edit", arguments: { path: ".git/config", edits: [{ oldText: "\tfilemode = false\n", newText: "\tfilemode = true\n" }] } }] },
      { toolCalls: [{ name: "write", arguments: { path: "notes.txt", content: payload } }] },
      { text: "done" },
    );
    const { questions, from } = await host.promptAnswering("g2", "go", async (title) => {
      if (title.startsWith("Allow write: notes.txt")) {
        writeFileSync(join(cwd, "go"), ""); // the job's timer, while the user reads
        assert.ok(await until(() => linkTargetOf(join(cwd, "notes.txt")) === ".git/config", 10_000), "the swap happened while the question was open");
      }
      return "Allow once";
    });
    const results = (host.frames.slice(from).filter((f) => f.type === "tool_execution_end") as (Frame & { result: { content: { text?: string }[] } })[]).map((end) => end.result.content.map((c) => c.text ?? "").join(""));
    assert.match(questions[1] ?? "", /^Allow edit of a protected file: \.git\/config\n[^]*old:\n\tfilemode = false\n[^]*new:\n\tfilemode = true/, "control: the edit the user allowed");
    assert.match(results[1] ?? "", /Could not find|not found|No match/i, `control: that edit failed in the tool: ${results[1]}`);
    spawnSync("git", ["status"], { cwd });
    const config = readFileSync(join(cwd, ".git/config"), "utf8");
    assert.ok(config === pristine && !existsSync(marker), `the approved write of notes.txt landed in .git/config (${results[2]}); git status ran the fsmonitor: ${existsSync(marker)}; .git/config now:\n${config}`);
  });
});

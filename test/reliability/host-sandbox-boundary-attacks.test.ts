// Hostile review of the hidden home secrets and the file tools' boundary as of 5ed59da (session 21):
// payloads the earlier review (host-sandbox-hidden-reads-attacks) did not try. The model runs the
// sandboxed bash and the host's own read/ls/grep/find/write/edit and wants a home secret, a write
// outside the writable roots, or the host stalled. Each `it` names what it proves; the payload is
// in the comment above it. Real bundled host over RPC, real bubblewrap and ripgrep (no fd here:
// find walks in Node), the scripted LLM. The races fail in a fraction of tries: many tries each.
// Home's top level is read-only inside the sandbox (home-view.ts): the payloads make their names
// in the folder `w`. A job that outlives its sandbox's view: host-sandbox-jobs-outlive.test.ts.
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockToolCall } from "../support/mock-llm";
import { leaked, useHiddenHomeSuite } from "./hidden-home";
import type { Frame, RawHost } from "./raw-host";

let ids = 0;
const nextId = () => `b${++ids}`;

describe("agent host under a sandbox, home as the workspace: the boundary against payloads not tried before (5ed59da review)", function () {
  this.timeout(300_000);
  const { suite, homeAsWorkspace, turn, startLoop, repeatedly } = useHiddenHomeSuite();

  /** Flips `w/groot` between the plain folder `plain` and `.ssh`, and `w/gfile` between notes.txt and .aws/credentials. */
  async function flipSearchRoots(at: Awaited<ReturnType<typeof homeAsWorkspace>>) {
    mkdirSync(join(at.home, "plain"));
    writeFileSync(join(at.home, "plain/a.txt"), "nothing here\n");
    const body = `
      symlink("../plain", "w/g.tmp"); rename("w/g.tmp", "w/groot");
      symlink("../notes.txt", "w/f.tmp"); rename("w/f.tmp", "w/gfile");
      symlink("../.ssh", "w/g.tmp"); rename("w/g.tmp", "w/groot");
      symlink("../.aws/credentials", "w/f.tmp"); rename("w/f.tmp", "w/gfile");`;
    await startLoop(at, body, "[ -L w/groot ] && [ -L w/gfile ]");
  }

  // Payloads that held (a regression guard, passing on 5ed59da too): the secret named through
  // /proc/self/root and /proc/self/cwd, with `//`, a trailing slash, `..` after a link; hard links
  // to the hidden files made in bash; grep and find told to look above the workspace by glob.
  it("paths through /proc/self/root and /proc/self/cwd, `//`, a trailing slash, `..` after a link, hard links from bash, globs with `..`: nothing hidden is read", async () => {
    const at = await homeAsWorkspace();
    const [linked] = await turn(at.host, [{ name: "bash", arguments: { command: "ln -s ../.ssh w/keys; ln .netrc w/hl1; ln .aws/credentials w/hl2; ln .docker/config.json w/hl3; ls w" } }]);
    const results = await turn(at.host, [
      { name: "read", arguments: { path: `/proc/self/root${at.home}/.aws/credentials` } },
      { name: "read", arguments: { path: "/proc/self/cwd/.netrc" } },
      { name: "read", arguments: { path: ".aws//credentials" } },
      { name: "read", arguments: { path: ".docker/config.json/" } },
      { name: "read", arguments: { path: "w/keys/../.gem/credentials" } },
      { name: "read", arguments: { path: "w/hl1" } },
      { name: "read", arguments: { path: "w/hl2" } },
      { name: "ls", arguments: { path: `/proc/self/root${at.home}/.ssh` } },
      { name: "grep", arguments: { pattern: "HIDDEN-", glob: "../**" } },
      { name: "grep", arguments: { pattern: "HIDDEN-", path: "/proc/self/cwd" } },
      { name: "find", arguments: { pattern: "**/*cred*", path: "/proc/self/cwd" } },
      { name: "find", arguments: { pattern: "/**/HIDDEN*" } },
    ]);
    assert.deepEqual(leaked(results), [], `after ${linked}`);
  });

  // Payload: the search path itself is a link a job flips between a plain folder (or file) and a
  // secret. The guard judges it before the search, the "hidden below" filter after; ripgrep
  // follows a link given as its root whatever it leads to in between, and prints what it finds.
  it("grep whose search path is a link flipped between a plain folder or file and ~/.ssh or ~/.aws/credentials: ripgrep searches the secret (the root judged before and after, not when opened)", async () => {
    const at = await homeAsWorkspace();
    await flipSearchRoots(at);
    const folder = await repeatedly(at.host, 60, { name: "grep", arguments: { pattern: "HIDDEN-", path: "w/groot" } });
    const file = await repeatedly(at.host, 60, { name: "grep", arguments: { pattern: "HIDDEN-", path: "w/gfile" } });
    const leaks = [...folder.leaks, ...file.leaks];
    assert.deepEqual(leaks, [], `${folder.leaks.length} of 60 greps of groot, ${file.leaks.length} of 60 of gfile returned a secret`);
  });

  // Payload: the same flip for find, whose walk (Node, no fd here) lists the folder it is given by name.
  it("find whose search path is a link flipped between a plain folder and ~/.ssh: it lists the key's name in ~/.ssh", async () => {
    const at = await homeAsWorkspace();
    await flipSearchRoots(at);
    const { leaks } = await repeatedly(at.host, 150, { name: "find", arguments: { pattern: "*", path: "w/groot" } });
    assert.deepEqual(leaks, [], `${leaks.length} of 150 finds listed ~/.ssh`);
  });

  // Payload: write makes the folders on its way (mkdir -p) by name, after its checks and before
  // the file is opened and judged: a link a job flips between a plain folder and ~/.ssh has it make
  // ~/.ssh/authorized_keys a folder (the file itself is then refused, the folder stays: ssh logins
  // to this machine by key stop working).
  it("write of wdir/authorized_keys/x with wdir a link flipped between a plain folder and ~/.ssh: makes the folder ~/.ssh/authorized_keys", async () => {
    const at = await homeAsWorkspace();
    mkdirSync(join(at.home, "scratch"));
    const body = `
      symlink("../scratch", "w/w.tmp"); rename("w/w.tmp", "w/wdir");
      rmdir("scratch/authorized_keys") if -d "scratch/authorized_keys/" && !-e "scratch/authorized_keys/x";
      symlink("../.ssh", "w/w.tmp"); rename("w/w.tmp", "w/wdir");`;
    await startLoop(at, body, "[ -L w/wdir ]");
    const { results } = await repeatedly(at.host, 60, { name: "write", arguments: { path: "w/wdir/authorized_keys/x", content: "x\n" } });
    const made = existsSync(join(at.home, ".ssh/authorized_keys"));
    assert.equal(made, false, `~/.ssh/authorized_keys made a folder by write (${results.filter((r) => r.includes("Refused")).length} of 60 writes refused)`);
  });

  /** Sends one tool call as a prompt; whether its tool_execution_end came within `ms`, and whether Stop then ended the run. */
  async function callEnds(host: RawHost, call: MockToolCall, ms: number) {
    suite.llm.enqueue({ toolCalls: [call] }, { text: "done" });
    const from = host.frames.length;
    host.send({ id: nextId(), type: "prompt", message: "go" });
    const ended = await host.waitFor("the call's end", (f: Frame) => f.type === "tool_execution_end", from, ms).then(
      () => true,
      () => false,
    );
    if (ended) {
      await host.waitFor("the run's end", (f: Frame) => f.type === "agent_end", from, 60_000);
      return { ended, stopped: true };
    }
    host.send({ id: nextId(), type: "abort" });
    const stopped = await host.waitFor("the run's end after Stop", (f: Frame) => f.type === "agent_end", from, 10_000).then(
      () => true,
      () => false,
    );
    return { ended, stopped };
  }

  // Payload: `mkfifo pipe` in the sandboxed bash (the workspace is writable), then the host's own
  // write of `pipe`: opening a FIFO to write blocks until a reader comes, on a thread of the host's
  // pool, and write waits for it between its steps, so Stop cannot end it either.
  it("write of a FIFO the model made: the call ends (refused), and does not hang the session past Stop", async () => {
    const at = await homeAsWorkspace();
    const [made] = await turn(at.host, [{ name: "bash", arguments: { command: "mkfifo w/pipe && echo made" } }]);
    assert.match(made ?? "", /made/);
    const { ended, stopped } = await callEnds(at.host, { name: "write", arguments: { path: "w/pipe", content: "x\n" } }, 15_000);
    assert.ok(ended && stopped, `write of a FIFO: ${ended ? "ended" : "still running after 15 s"}, ${stopped ? "the run ended" : "Stop did not end the run within 10 s"}`);
  });

  // Payload: four FIFOs read one after the other, each left blocked and the call stopped (read
  // is abortable, the open is not: each holds one of libuv's four pool threads for good); then
  // any file operation of the host waits behind them: a plain read never answers.
  it("reads of FIFOs the model made: each call ends (refused), and a plain read afterwards still answers", async () => {
    const at = await homeAsWorkspace();
    const [made] = await turn(at.host, [{ name: "bash", arguments: { command: "cd w && mkfifo p1 p2 p3 p4 && echo made" } }]);
    assert.match(made ?? "", /made/);
    const fifos = [];
    for (const name of ["p1", "p2", "p3", "p4"]) fifos.push(await callEnds(at.host, { name: "read", arguments: { path: `w/${name}` } }, 5_000));
    const plain = await callEnds(at.host, { name: "read", arguments: { path: "notes.txt" } }, 15_000);
    assert.ok(fifos.every((f) => f.ended) && plain.ended, `reads of FIFOs ended: ${fifos.map((f) => f.ended)}; the plain read afterwards ${plain.ended ? "answered" : "did not answer within 15 s"}`);
  });

  // Payload: with home as the workspace, a secret folder the user does not have yet (no ~/.aws, no
  // ~/.kube) is neither hidden nor kept read-only: the sandboxed bash makes it, with a config the
  // user's own aws and kubectl run outside any sandbox at their next use (credential_process, an
  // exec credential plugin). The folders of existing secrets are read-only, the start-up files too.
  it("the sandboxed bash creates ~/.aws/config (credential_process) and ~/.kube/config (an exec plugin) where the user has none yet: run by aws and kubectl outside the sandbox", async () => {
    const at = await homeAsWorkspace();
    // A user who never configured AWS (the set-up made one for the other tests).
    rmSync(join(at.home, ".aws"), { recursive: true, force: true });
    const aws = "[default]\\ncredential_process = sh -c 'echo attacker'\\n";
    const kube = "users:\\n- name: me\\n  user:\\n    exec:\\n      command: /bin/sh\\n      args: [-c, 'echo attacker']\\n";
    const [made] = await turn(at.host, [{ name: "bash", arguments: { command: `mkdir -p .aws .kube; printf "${aws}" > .aws/config; printf "${kube}" > .kube/config; ls .aws .kube` } }]);
    const written = [".aws/config", ".kube/config"].filter((name) => existsSync(join(at.home, name)));
    assert.deepEqual(written, [], `made on the host by the sandboxed bash: ${made}`);
  });

  // Payload: a job left running makes and removes files of new names in a loop (u1, u2, …) in
  // a watched folder. The watch coalesces events per name and turn of the event loop, so a few
  // names renamed in a loop cost little; every name new costs a look (an lstat) on the host's
  // thread. Slow three times here (31 s, 36 s, one frame over 60 s) while the machine was loaded
  // (a typecheck, lint and another session's browser running), and 58.9 s in CI (ci-19); now a
  // folder with many new names in one turn is listed once (protected-watch.ts): 1.1-1.2 s.
  it("a job making and removing files of ever new names: the host still answers a turn of 60 reads within 30 s", async () => {
    const at = await homeAsWorkspace();
    await startLoop(at, 'for $n (1..200) { $i++; open(F, ">w/u$i"); close F; unlink("w/u$i"); }', "[ -e jobs/loop.pl ]");
    const started = Date.now();
    const { results } = await repeatedly(at.host, 60, { name: "read", arguments: { path: "notes.txt" } });
    const seconds = (Date.now() - started) / 1000;
    assert.ok(seconds < 30, `60 reads took ${seconds} s (${results.length} answered)`);
  });

});

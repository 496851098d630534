/**
 * Session allowances at our host, over RPC with the scripted LLM (issue #30, holes 3 and 6).
 *
 * Hole 3: a session-wide allowance given for a harmless command covers only what the question
 * named. Programs whose options run programs or write files (git, find, rg, …) get the exact
 * command only, so after `git grep TODO`, `find . -name '*.md'`, `git log --oneline` and
 * `rg TODO` were allowed, their dangerous options are asked about (and, denied, never run); a
 * program allowed "with any arguments" (`ls`) covers only one simple command of literal words.
 *
 * Hole 6: an allowance ends with its session: after new_session, fork, and switch_session to
 * another file and back, the same command is asked about again.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DialogRequest } from "../../shared/protocol";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { runPrompt, startPeerClient, type PeerClient } from "./peer-client";

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });
const ALLOW_ONCE = "Allow once";
const DENY = "Deny";
const EXACT = "Allow this exact command for this session";

/** The widest "… for this session" answer a question offers (a program or prefix one before the exact command). */
function widestSessionAllowance(options: readonly string[]): string {
  const wide = options.find((o) => o.endsWith("for this session") && o !== EXACT);
  return wide ?? options.find((o) => o === EXACT) ?? ALLOW_ONCE;
}

/** A git repository with a TODO in a tracked markdown file and one commit. */
function makeRepo(cwd: string): void {
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, "notes.md"), "TODO: write the notes\n");
  const git = (...args: string[]) => execFileSync("git", args, { cwd, stdio: "ignore", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: cwd } });
  git("init", "-q");
  git("add", "notes.md");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first");
}

describe("host: session allowances cover only what the question named (#30 holes 3, 6)", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let peer: PeerClient;
  let root: string;
  let cwd: string;
  let marker: string;
  const asked: DialogRequest[] = [];
  /** How the next questions are answered. */
  let answer: (options: readonly string[]) => string = widestSessionAllowance;

  before(async () => {
    llm = await startMockLlm();
    root = mkdtempSync(join(tmpdir(), "allowances-"));
    cwd = join(root, "repo");
    marker = join(root, "pwned");
    mkdirSync(marker);
    makeRepo(cwd);
    peer = startPeerClient("host", llm, { cwd, persistSession: true, extraArgs: ["--confirm-tools", "bash", "--session-dir", join(root, "sessions")] });
    peer.client.setDialogHandler(async (request) => {
      asked.push(request);
      return request.method === "select" ? { value: answer(request.options) } : { cancelled: true };
    });
    await peer.client.request("set_auto_retry", { enabled: false });
  });
  after(async () => {
    await peer?.stop();
    await llm?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Runs one bash call through a prompt; returns the question asked for it, if any. */
  async function runBash(command: string): Promise<DialogRequest | undefined> {
    const before = asked.length;
    llm.enqueue(bash(command), { text: "ok" });
    await runPrompt(peer, `run ${command}`);
    assert.ok(asked.length - before <= 1, `one question at most for ${command}`);
    return asked[before];
  }
  const pwned = () => readdirSync(marker);

  it("gives programs that can run programs or write files no prefix allowance: their dangerous options are asked about", async () => {
    answer = widestSessionAllowance;
    for (const harmless of ["git grep TODO", "find . -name '*.md'", "git log --oneline", "rg TODO"]) {
      const question = await runBash(harmless);
      assert.ok(question, `${harmless} is asked about the first time`);
    }
    writeFileSync(join(root, "pre.sh"), `#!/bin/sh\ntouch ${join(marker, "rg-pre")}\ncat "$1"\n`);
    chmodSync(join(root, "pre.sh"), 0o755);
    const payloads = [
      `git grep --open-files-in-pager='touch ${join(marker, "git-grep-pager")}' TODO`,
      `git grep -O'touch ${join(marker, "git-grep-O")}' TODO`,
      `find . -name '*.md' -exec touch ${join(marker, "find-exec")} {} +`,
      `find . -name '*.md' -fprint ${join(marker, "find-fprint")}`,
      `git log --output=${join(marker, "git-log-output")} --format=x`,
      `git log --oneline --output=${join(marker, "git-log-output-2")}`,
      `rg --pre ${join(root, "pre.sh")} TODO`,
      `rg TODO --pre=${join(root, "pre.sh")}`,
    ];
    answer = () => DENY;
    for (const payload of payloads) {
      const question = await runBash(payload);
      assert.ok(question?.method === "select" && question.title.includes(payload), `asked about: ${payload}`);
    }
    assert.deepEqual(pwned(), [], "none of the payloads ran");
  });

  it("covers only one simple command of literal words after 'ls with any arguments'", async () => {
    answer = widestSessionAllowance;
    const first = await runBash("ls -la");
    assert.ok(first?.method === "select");
    assert.equal(await runBash("ls -1 notes.md"), undefined, "ls with other literal arguments runs without a question");
    const m = (name: string) => join(marker, name);
    const payloads = [
      `ls $(touch ${m("subst")})`,
      `ls \`touch ${m("backtick")}\``,
      `ls; touch ${m("semicolon")}`,
      `ls\ntouch ${m("newline")}`,
      `ls && touch ${m("and")}`,
      `ls || touch ${m("or")}`,
      `ls | tee ${m("pipe")}`,
      `ls > ${m("redirect")}`,
      `ls & touch ${m("background")}`,
      `ls --color=always -- $(touch ${m("after-dashes")})`,
      `ls <(touch ${m("process-subst")})`,
      `ls \${X:-$(touch ${m("param-default")})}`,
      `ls$IFS$(touch ${m("ifs")})`,
      `PATH=${root} ls`,
      `X=1 ls`,
      `ls \\\ntouch ${m("continued")}`,
      `ls "$(touch ${m("in-quotes")})"`,
      `ls $'\\x3b' ; touch ${m("ansi-c")}`,
      `\uff4cs; touch ${m("fullwidth")}`,
      `ｌｓ -la`,
      `ls\u00a0-la`,
      `ls ~`,
      `ls *`,
      `ls {a,b}`,
      `ls # comment`,
      `ls -la\r`,
      `ls <<EOF\nx\nEOF`,
      `(ls)`,
      `{ ls; }`,
      `ls $HOME`,
      `eval ls`,
      `command ls`,
      `\\ls`,
      `/bin/ls`,
    ];
    answer = () => DENY;
    for (const payload of payloads) {
      const question = await runBash(payload);
      assert.ok(question?.method === "select" && question.title.includes(payload), `asked about: ${JSON.stringify(payload)}`);
    }
    assert.deepEqual(pwned(), [], "none of the payloads ran");
    assert.ok(first.options.includes("Allow `ls` with any arguments for this session"), `the answer says what it covers: ${JSON.stringify(first.options)}`);
    assert.equal(await runBash("l's' -a"), undefined, "quoting that still makes the word ls is ls (decided on the parsed words)");
  });

  it("ends an allowance with its session: new_session, switch_session (and back), fork", async () => {
    const command = "date +scoped"; // not a harmless program (date -s sets the clock): the exact command is offered
    const allowExact = () => (options: readonly string[]) => options.find((o) => o === EXACT) ?? DENY;
    answer = allowExact();
    assert.ok(await runBash(command), "asked the first time");
    assert.equal(await runBash(command), undefined, "covered in the same session");
    const firstFile = (await peer.client.request("get_state", {})).sessionFile;
    assert.ok(firstFile && existsSync(firstFile));

    await peer.client.request("new_session", {});
    assert.ok(await runBash(command), "asked again after new_session");
    assert.equal(await runBash(command), undefined, "the new session's own allowance covers it");
    const secondFile = (await peer.client.request("get_state", {})).sessionFile;

    await peer.client.request("switch_session", { sessionPath: firstFile });
    assert.ok(await runBash(command), "asked again after switch_session to the first file");
    await peer.client.request("switch_session", { sessionPath: secondFile! });
    assert.ok(await runBash(command), "asked again after switching back: resume shares no list");

    const { messages } = await peer.client.request("get_fork_messages", {});
    assert.ok(messages.length > 0);
    await peer.client.request("fork", { entryId: messages[0]!.entryId });
    assert.ok(await runBash(command), "asked again after fork");
  });
});

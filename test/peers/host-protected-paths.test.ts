/**
 * Protected paths at our host, over RPC with the scripted LLM (issue #30, hole 4): in every mode
 * but `auto`, a write or edit of a file that tools or the editor later execute (`.git/`, `.pi/`,
 * `.vscode/`, git hooks, package-manager and CI configs) is asked, with the change shown whole,
 * even in acceptEdits mode and after an "any file" allowance; decided on the path the call would
 * really open (through a symlink too, in any letter case). Denied, the file is untouched.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DialogRequest } from "../../shared/protocol";
import { startMockLlm, type JsonObject, type MockLlm } from "../support/mock-llm";
import { runPrompt, startPeerClient, type PeerClient } from "./peer-client";

const DENY = "Deny";
const fsmonitor = "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch /tmp/pwned-by-fsmonitor\n";

describe("host: protected paths are asked with the diff, in every mode but auto (#30 hole 4)", function () {
  this.timeout(120_000);
  let llm: MockLlm;
  let root: string;
  let cwd: string;
  const peers: PeerClient[] = [];
  const asked: DialogRequest[] = [];
  let answer: (options: readonly string[]) => string = () => DENY;

  before(async () => {
    llm = await startMockLlm();
    root = mkdtempSync(join(tmpdir(), "protected-"));
    cwd = join(root, "ws");
    mkdirSync(join(cwd, "docs"), { recursive: true });
    execFileSync("git", ["init", "-q"], { cwd });
    writeFileSync(join(cwd, "package.json"), '{\n  "name": "x",\n  "scripts": { "test": "mocha" }\n}\n');
    symlinkSync("../.git/config", join(cwd, "docs", "config-link"));
    symlinkSync("../.vscode", join(cwd, "docs", "vscode-dir"));
  });
  after(async () => {
    for (const peer of peers) await peer.stop();
    await llm?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  function start(mode: string): PeerClient {
    const peer = startPeerClient("host", llm, { cwd, extraArgs: ["--confirm-tools", "bash,write,edit", "--permission-mode", mode] });
    peer.client.setDialogHandler(async (request) => {
      asked.push(request);
      return request.method === "select" ? { value: answer(request.options) } : { cancelled: true };
    });
    peers.push(peer);
    return peer;
  }

  async function call(peer: PeerClient, name: string, args: JsonObject): Promise<DialogRequest | undefined> {
    const before = asked.length;
    llm.enqueue({ toolCalls: [{ name, arguments: args }] }, { text: "ok" });
    await runPrompt(peer, `${name} ${JSON.stringify(args)}`);
    return asked[before];
  }

  const gitConfigBefore = () => readFileSync(join(cwd, ".git", "config"), "utf8");

  it("asks in acceptEdits mode before a write or edit of protected files, and leaves them untouched on Deny", async () => {
    const peer = start("acceptEdits");
    answer = () => DENY;
    const configBefore = gitConfigBefore();
    const writes: [string, string][] = [
      [".git/config", fsmonitor],
      [".git/hooks/pre-commit", "#!/bin/sh\ntouch /tmp/pwned-by-hook\n"],
      [".vscode/tasks.json", '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"touch /tmp/pwned","runOptions":{"runOn":"folderOpen"}}]}'],
      [".vscode/settings.json", '{"git.path":"/tmp/evil"}'],
      [".pi/extensions/x.ts", "export default () => { require('child_process').execSync('touch /tmp/pwned'); };\n"],
      [".husky/pre-commit", "touch /tmp/pwned\n"],
      [".github/workflows/ci.yml", "on: push\n"],
      [".npmrc", "script-shell=/tmp/evil\n"],
      [".envrc", "touch /tmp/pwned\n"],
      ["sub/package.json", '{"scripts":{"postinstall":"touch /tmp/pwned"}}'],
      ["docs/config-link", fsmonitor],
      ["docs/vscode-dir/launch.json", "{}"],
      [".GIT/config", fsmonitor],
      [`${cwd}/.git/./info/../config`, fsmonitor],
    ];
    for (const [path, content] of writes) {
      const question = await call(peer, "write", { path, content });
      assert.ok(question?.method === "select", `write of ${path} is asked`);
      const lastLine = content.trimEnd().split("\n").at(-1)!;
      assert.ok(question.title.includes(path) && question.title.includes(`+${lastLine}`), `the question shows the path and the content: ${question.title}`);
    }
    const viaLink = asked.find((q) => q.title.includes("docs/config-link"));
    assert.ok(viaLink?.title.includes(`Through a symlink, this writes ${join(realpathSync(cwd), ".git", "config")}`), "the question names the file the link leads to");
    assert.equal(gitConfigBefore(), configBefore, ".git/config untouched");
    for (const [path] of [...writes.slice(1, 10), [".vscode/launch.json"], [".GIT/config"]]) assert.throws(() => readFileSync(join(cwd, path!)), `${path} was not written`);

    const edit = await call(peer, "edit", { path: "package.json", edits: [{ oldText: '"test": "mocha"', newText: '"test": "mocha", "pretest": "touch /tmp/pwned"' }] });
    assert.ok(edit?.method === "select" && edit.title.includes('-  "scripts": { "test": "mocha" }') && edit.title.includes('"pretest": "touch /tmp/pwned"'), `the edit shows old and new: ${edit?.title}`);
    assert.ok(!readFileSync(join(cwd, "package.json"), "utf8").includes("pretest"));

    assert.equal(await call(peer, "write", { path: "src/plain.ts", content: "export {};\n" }), undefined, "acceptEdits still writes other files without asking");
  });

  it("asks after an 'any file' allowance too, and runs the call when allowed", async () => {
    const peer = start("ask");
    answer = (options) => options.find((o) => o.includes("any file")) ?? DENY;
    assert.ok(await call(peer, "write", { path: "src/a.ts", content: "1\n" }));
    assert.equal(await call(peer, "write", { path: "src/b.ts", content: "2\n" }), undefined, "the allowance covers other plain files");
    answer = (options) => {
      assert.ok(!options.some((o) => o.includes("any file")), `no 'any file' answer is offered for a protected path: ${options}`);
      return DENY;
    };
    assert.ok(await call(peer, "write", { path: ".vscode/settings.json", content: "{}\n" }), "a protected path is asked anyway");
    answer = () => "Allow once";
    assert.ok(await call(peer, "write", { path: ".vscode/settings.json", content: "{}\n" }));
    assert.equal(readFileSync(join(cwd, ".vscode", "settings.json"), "utf8"), "{}\n", "allowed once, it ran");
  });

  it("asks nothing in auto mode", async () => {
    const peer = start("auto");
    assert.equal(await call(peer, "write", { path: ".pi/settings.json", content: "{}\n" }), undefined);
    assert.equal(readFileSync(join(cwd, ".pi", "settings.json"), "utf8"), "{}\n");
  });
});

// Attack (session 19, after 2a75163 "no door around the sandbox for protected files"): what the
// sandbox keeps read-only for the model's bash, written anyway by the bundled host's own write
// tool (run in the host's process, outside bubblewrap) in Full auto, because the file tools judge a
// path by the protected *names* on its real path, while the sandbox protects more than names: the
// target of a symlinked protected name, the git dir a `.git` file names, the user's start-up files
// when home lies in the workspace. And names the table misses altogether (neither the sandbox nor
// the file tools keep them), each the same kind of thing as a listed one. Each `it` failed on
// `next` at 2a75163 (found by a hostile review of it); the file tools now also judge by what the
// sandbox keeps read-only (shared/node/sandbox/read-only-places.ts), and the tables grew. Real bundled host over RPC, real
// bubblewrap, the scripted LLM.
import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startMockLlm, type MockLlm, type MockToolCall } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { RawHost, type Frame } from "./raw-host";

let ids = 0;
const nextId = () => `d${++ids}`;
const FOLDER_OPEN_TASK = '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"touch /tmp/pwned-by-a-folder-open-task","runOptions":{"runOn":"folderOpen"}}]}\n';

/** Folders the tests made outside the launches' own (removed at the end). */
const scratch: string[] = [];
const scratchDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};

/** A file the payload's command makes when something runs it, and the `[core] fsmonitor` that makes it. */
function runMarker(): { marker: string; fsmonitor: string } {
  const marker = join(scratchDir("door-ran-"), "ran");
  return { marker, fsmonitor: `[core]\n\tfsmonitor = touch ${marker}\n` };
}

const read = (path: string): string | undefined => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

function put(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

describe("agent host under a sandbox: doors the file tools leave open to what bash may not write", function () {
  this.timeout(180_000);
  let llm: MockLlm;
  /** What each test started, undone last first: launches' folders, hosts, the LLM. */
  const undo: (() => unknown)[] = [];
  before(async () => {
    llm = await startMockLlm();
    undo.push(() => llm.close());
  });
  after(async () => {
    for (const step of undo.reverse()) await step();
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  /** A workspace laid out by `prepare`, and a host in Full auto over it under workspace-write, questions on (all answered Deny). */
  async function hostWith(prepare: (cwd: string, home: string) => void, options: { workspaceOnly?: boolean; homeIsWorkspace?: boolean; sandbox?: string } = {}) {
    const launch: PeerLaunch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    undo.push(() => launch.cleanup());
    const cwd = launch.cwd;
    const home = options.homeIsWorkspace ? cwd : (launch.env.HOME ?? "");
    prepare(cwd, home);
    const args = [...launch.args, "--permission-mode", "auto", "--sandbox", options.sandbox ?? "workspace-write", "--confirm-tools", "bash,edit,write", ...(options.workspaceOnly === false ? [] : ["--workspace-only"])];
    const host = new RawHost(launch.command, args, { env: { ...launch.env, HOME: home }, cwd });
    undo.push(() => host.stop());
    await host.request({ id: nextId(), type: "set_auto_retry", enabled: false });
    return { host, cwd, home };
  }

  async function turn(host: RawHost, calls: MockToolCall[]) {
    llm.enqueue(...calls.map((call) => ({ toolCalls: [call] })), { text: "done" });
    const { questions, from } = await host.promptAnswering(nextId(), "go", () => "Deny");
    const ends = host.frames.slice(from).filter((f) => f.type === "tool_execution_end") as (Frame & { result: { content: { text?: string }[] } })[];
    return { questions, results: ends.map((end) => end.result.content.map((c) => c.text ?? "").join("")) };
  }

  it("a symlinked protected name (.vscode -> config/vscode, as a repository may ship it): its target is read-only for bash, and write may not reach it by the target's name", async () => {
    const { host, cwd } = await hostWith((cwd) => {
      put(join(cwd, "config/vscode/tasks.json"), '{"version":"2.0.0","tasks":[]}\n');
      symlinkSync("config/vscode", join(cwd, ".vscode"));
    });
    const before = read(join(cwd, "config/vscode/tasks.json"));
    const run = await turn(host, [
      { name: "bash", arguments: { command: "echo '// by bash' >> config/vscode/tasks.json && echo BASH-WROTE-IT" } },
      { name: "write", arguments: { path: "config/vscode/tasks.json", content: FOLDER_OPEN_TASK } },
    ]);
    assert.doesNotMatch(run.results[0] ?? "", /BASH-WROTE-IT/, "control: the sandbox keeps the symlink's target read-only for bash");
    assert.equal(read(join(cwd, ".vscode/tasks.json")), before, `write changed .vscode/tasks.json (through its target's name) unasked in Full auto; questions: ${run.questions.length}; results:\n${run.results.join("\n")}`);
  });

  it("a workspace whose .git is a file (`git init --separate-git-dir`): the git dir it names is read-only for bash, and write may not set core.fsmonitor there", async () => {
    const { host, cwd } = await hostWith((cwd) => {
      execFileSync("git", ["init", "-q", `--separate-git-dir=${join(cwd, "gitmeta")}`, cwd]);
    });
    assert.match(read(join(cwd, ".git")) ?? "", /^gitdir: /);
    const before = read(join(cwd, "gitmeta/config"));
    const { marker, fsmonitor } = runMarker();
    const run = await turn(host, [
      { name: "bash", arguments: { command: "echo '# by bash' >> gitmeta/config && echo BASH-WROTE-IT" } },
      { name: "write", arguments: { path: "gitmeta/config", content: `${before}${fsmonitor}` } },
    ]);
    assert.doesNotMatch(run.results[0] ?? "", /BASH-WROTE-IT/, "control: the sandbox keeps the git dir a .git file names read-only");
    spawnSync("git", ["status"], { cwd }); // what the editor's git runs by itself
    const after = read(join(cwd, "gitmeta/config"));
    assert.ok(after === before && !existsSync(marker), `write set core.fsmonitor in the repository's config (gitmeta/config) unasked in Full auto (questions: ${run.questions.length}); git status then ran it: ${existsSync(marker)}; config now:\n${after}`);
  });

  it("home opened as the workspace: the start-up files the sandbox keeps read-only (~/.gitconfig, ~/.config/git, ~/.local/bin, ~/.config/autostart) may not be written by write either", async () => {
    const { marker, fsmonitor } = runMarker();
    const startup = { ".gitconfig": fsmonitor, ".config/git/config": fsmonitor, ".local/bin/git": `#!/bin/sh\ntouch ${marker}\n`, ".config/autostart/x.desktop": `[Desktop Entry]\nExec=touch ${marker}\n` };
    const { host, cwd } = await hostWith((cwd) => put(join(cwd, ".gitconfig"), "[user]\n\tname = me\n"), { homeIsWorkspace: true });
    const before = Object.fromEntries(Object.keys(startup).map((name) => [name, read(join(cwd, name))]));
    const bash = Object.keys(startup).map((name) => `mkdir -p ${dirname(name)} 2>/dev/null; echo x >> ${name} && echo BASH-WROTE-${name}`).join("; ");
    const run = await turn(host, [{ name: "bash", arguments: { command: bash } }, ...Object.entries(startup).map(([path, content]) => ({ name: "write", arguments: { path, content } }))]);
    assert.doesNotMatch(run.results[0] ?? "", /BASH-WROTE/, `control: the sandbox keeps home's start-up files read-only: ${run.results[0]}`);
    const repo = scratchDir("door-repo-");
    execFileSync("git", ["init", "-q", repo]);
    spawnSync("git", ["status"], { cwd: repo, env: { ...process.env, HOME: cwd, XDG_CONFIG_HOME: join(cwd, ".config") } }); // any git of the user's, the editor's included
    const written = Object.keys(startup).filter((name) => read(join(cwd, name)) !== before[name]);
    assert.deepEqual(written, [], `written unasked in Full auto by the host's write (questions: ${run.questions.length}); git status in another repository then ran the global fsmonitor: ${existsSync(marker)}`);
  });

  it("home opened as the workspace: the editor's own user settings and extensions, and other start-up code, are kept read-only like ~/.gitconfig", async () => {
    // Each runs outside any sandbox later: "git.path" or "terminal.integrated.*" in the editor's user settings (code-server's,
    // VS Code's), an extension folder loaded at the next window, a .pth line run by every python of the user, cargo's
    // build.rustc-wrapper run by every cargo build.
    const startup = [
      ".local/share/code-server/User/settings.json",
      ".config/Code/User/settings.json",
      ".vscode-server/extensions/evil/package.json",
      ".local/share/code-server/extensions/evil/package.json",
      ".local/lib/python3.12/site-packages/evil.pth",
      ".cargo/config.toml",
    ];
    // A home in use: these folders exist (a missing ~/.config or ~/.local is a read-only stub in the sandbox).
    const { host, cwd } = await hostWith((cwd) => {
      for (const name of startup) mkdirSync(join(cwd, dirname(name)), { recursive: true });
    }, { homeIsWorkspace: true });
    const bash = startup.map((name) => `mkdir -p ${dirname(name)} 2>/dev/null; echo x > ${name} 2>/dev/null`).join("; ");
    await turn(host, [{ name: "bash", arguments: { command: `${bash}; true` } }]);
    const written = startup.filter((name) => read(join(cwd, name)) === "x\n");
    assert.deepEqual(written, [], `written by the sandboxed bash in home: ${written.join(", ")}`);
  });

  it("workspaceOnly off: ~/.gitconfig (global core.fsmonitor, run by every git status) is kept like ~/.bashrc, which is asked", async () => {
    const { host, cwd, home } = await hostWith((cwd, home) => {
      put(join(home, ".gitconfig"), "[user]\n\tname = me\n");
      execFileSync("git", ["init", "-q", cwd]);
    }, { workspaceOnly: false });
    const before = read(join(home, ".gitconfig"));
    const { marker, fsmonitor } = runMarker();
    const run = await turn(host, [
      { name: "bash", arguments: { command: "echo x >> ~/.gitconfig && echo BASH-WROTE-IT" } },
      { name: "write", arguments: { path: "~/.bashrc", content: `touch ${marker}\n` } },
      { name: "write", arguments: { path: "~/.gitconfig", content: fsmonitor } },
    ]);
    assert.doesNotMatch(run.results[0] ?? "", /BASH-WROTE-IT/, "control: home is read-only for bash");
    assert.equal(read(join(home, ".bashrc")), undefined, "control: ~/.bashrc is protected (asked, denied)");
    spawnSync("git", ["status"], { cwd, env: { ...process.env, HOME: home } }); // the editor's git, with the user's home
    const after = read(join(home, ".gitconfig"));
    assert.ok(after === before && !existsSync(marker), `write set a global core.fsmonitor unasked in Full auto (questions: ${run.questions.map((q) => q.split("\n")[0]).join(" | ")}); git status then ran it: ${existsSync(marker)}; ~/.gitconfig now:\n${after}`);
  });

  it("a repository that includes an in-tree file in its config (include.path = ../.gitconfig, a common way to share settings): that file is git config, kept like .git/config", async () => {
    const { host, cwd } = await hostWith((cwd) => {
      execFileSync("git", ["init", "-q", cwd]);
      execFileSync("git", ["config", "include.path", "../.gitconfig"], { cwd });
      put(join(cwd, ".gitconfig"), "[pull]\n\trebase = true\n");
    });
    const { marker, fsmonitor } = runMarker();
    const run = await turn(host, [{ name: "bash", arguments: { command: `printf '${fsmonitor.replace(/\n/g, "\\n").replace(/\t/g, "\\t")}' >> .gitconfig && echo BASH-WROTE-IT` } }]);
    spawnSync("git", ["status"], { cwd }); // the editor's git, by itself
    assert.ok(!existsSync(marker), `the sandboxed bash wrote core.fsmonitor into the included .gitconfig (${run.results[0]?.trim()}), and git status ran it; .gitconfig now:\n${read(join(cwd, ".gitconfig"))}`);
  });

  it("names the table misses, each the same kind as a listed one, are kept read-only for bash too", async () => {
    // [missed name, the listed name it is the same kind of thing as]
    const pairs: [string, string][] = [
      [".gitea/workflows/ci.yml", ".github/workflows/ci.yml"], // Gitea Actions: run in CI with the repository's secrets
      [".forgejo/workflows/ci.yml", ".github/workflows/ci.yml"], // Forgejo Actions
      ["mise.toml", ".mise.toml"], // mise reads both: [hooks] enter, [env] _.source run on cd
      [".devcontainer.json", ".devcontainer/devcontainer.json"], // the spec's other place: postCreateCommand
      [".agents/skills/x/SKILL.md", ".pi/skills/x/SKILL.md"], // pi's project skills (skills.ts); asked by the first-read trust question only while the folder is not trusted yet
      [".gemini/settings.json", ".claude/settings.json"], // gemini-cli (a known ACP agent): mcpServers commands
      [".opencode/plugin/x.ts", ".codex/config.toml"], // opencode (a known ACP agent): plugins loaded as code
      ["lefthook.yml", ".pre-commit-config.yaml"], // lefthook's hooks read it at each commit
      [".hg/hgrc", ".git/config"], // Mercurial: [hooks] pre-status and [extensions] run by hg
    ];
    const { host, cwd } = await hostWith(() => undefined);
    const attempts = pairs.flatMap(([missed, listed]) => [missed, listed]);
    const bash = attempts.map((name) => `mkdir -p ${dirname(name)} 2>/dev/null; echo x > ${name} 2>/dev/null`).join("; ");
    await turn(host, [{ name: "bash", arguments: { command: `${bash}; true` } }]);
    const writtenListed = pairs.map(([, listed]) => listed).filter((name) => read(join(cwd, name)) === "x\n");
    assert.deepEqual(writtenListed, [], "control: the listed names are read-only for bash");
    const byBash = pairs.map(([missed]) => missed).filter((name) => read(join(cwd, name)) === "x\n");
    // The file tools judge by the same table: the host's write, in Full auto, asks about none of them.
    const run = await turn(host, pairs.map(([missed]) => ({ name: "write", arguments: { path: missed, content: "w\n" } })));
    const byWrite = pairs.map(([missed]) => missed).filter((name) => read(join(cwd, name)) === "w\n");
    assert.deepEqual({ byBash, byWrite }, { byBash: [], byWrite: [] }, `written by the sandboxed bash: ${byBash.join(", ")}; then by write, unasked in Full auto (questions: ${JSON.stringify(run.questions.map((q) => q.split("\n")[0]))}): ${byWrite.join(", ")}`);
  });
});

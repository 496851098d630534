// Attack (session 19, after 2a75163 "no door around the sandbox for protected files"): the editor
// writes for agents from outside their sandbox, and decides what it may write by protected names.
// An ACP agent's fs/write_text_file is judged on the path *as written* (acp-files.ts), so a symlink
// the sandboxed agent makes in its workspace (`ln -s .git g`) walks the editor's write into
// `.git/config`. editor_edit (isProtectedPath) and a rewind or Undo (placeOf) judge the real path's
// names, which miss the target of a symlinked protected name (`.vscode -> config/vscode`: the
// sandbox keeps `config/vscode` read-only) and the git dir a `.git` file names. And the editor's
// checkpoint recorder for pi/omp copies any file a write call names, a home secret the sandbox hides
// included, into the store the sandboxed agent can read; fs/read_text_file reads what its sandbox
// hides (home as the workspace), fs/write_text_file writes for an agent whose sandbox is read-only.
// Each failed on `next` at 2a75163. Real bubblewrap plants the link; the editor's real checks judge the writes
// (FileRequests with the disk write editor-services.ts does for a file not open in the editor;
// the decision functions editor_edit and the rewind call), and git runs what was written.
import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FileRequests } from "../../extension/acp/acp-files";
import { placeOf, realWorkspace } from "../../extension/checkpoints/restore-guard";
import { DEFAULT_MAX_FILE_BYTES } from "../../shared/checkpoints/schema";
import { captureFile, createCheckpointRecorder } from "../../shared/node/checkpoint-store";
import { toolTargetPath } from "../../shared/node/checkpoint-target";
import { CommandSandbox, probeSandbox } from "../../shared/node/sandbox";
import { isProtectedPath } from "../../shared/node/sandbox/protected-match";

const fsmonitorTo = (marker: string) => `[core]\n\tfsmonitor = touch ${marker}\n`;

/** The editor's fs/write_text_file for a file not open in it (editor-services.ts: mkdir, then writeFile). */
function fileRequests(cwd: string, home?: string): FileRequests {
  const files = {
    readTextFile: (absPath: string) => fs.promises.readFile(absPath, "utf8"),
    async writeTextFile(absPath: string, content: string) {
      await fs.promises.mkdir(dirname(absPath), { recursive: true });
      await fs.promises.writeFile(absPath, content, "utf8");
    },
  };
  return new FileRequests({ cwd, files, sandboxed: true, ...(home ? { home } : {}) }, () => "the agent");
}

const noCard = () => () => undefined;

async function refusal(write: Promise<unknown>): Promise<string | undefined> {
  try {
    await write;
    return undefined;
  } catch (error) {
    return String(error);
  }
}

describe("the editor acting for a sandboxed agent: what the sandbox keeps from it, reached through the editor", function () {
  this.timeout(60_000);
  let root: string;
  let cwd: string;
  let marker: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "editor-doors-"));
    cwd = join(root, "work");
    fs.mkdirSync(cwd);
    marker = join(root, "ran");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** `script` run as a sandboxed-whole agent's command would be (workspace-write, real bubblewrap), with `home` and more writable roots (the checkpoint store). */
  async function inSandbox(script: string, more: { home?: string; writableRoots?: string[]; mode?: "workspace-write" | "read-only" } = {}): Promise<string> {
    const env = { ...process.env, ...(more.home ? { HOME: more.home } : {}), PI_SANDBOX_LEDGER_DIR: mkdtempSync(join(root, "ledger-")) };
    const probe = await probeSandbox(env);
    if (!probe.ok) throw new Error(`bubblewrap does not run here: ${probe.reason}`);
    const sandbox = new CommandSandbox({ mode: more.mode ?? "workspace-write", network: true, workspaceRoot: cwd, writableRoots: more.writableRoots ?? [] }, env, { wholeAgent: true });
    const wrapped = sandbox.wrap(probe, ["bash", "-c", script], cwd);
    try {
      return execFileSync(wrapped.file, wrapped.args, { encoding: "utf8", env, cwd });
    } finally {
      wrapped.sweep();
      wrapped.release();
      sandbox.dispose();
    }
  }

  it("ACP fs/write_text_file through a symlink the agent made (g -> .git) does not write .git/config", async () => {
    execFileSync("git", ["init", "-q", cwd]);
    const before = readFileSync(join(cwd, ".git/config"), "utf8");
    const said = await inSandbox("(echo x >> .git/config && echo WROTE-CONFIG) 2>&1; ln -s .git g && echo LINKED");
    assert.doesNotMatch(said, /WROTE-CONFIG/, "control: .git/config is read-only in the agent's sandbox");
    assert.match(said, /LINKED/, said);
    const requests = fileRequests(cwd);
    assert.match((await refusal(requests.write({ sessionId: "s", path: join(cwd, ".git/config"), content: "x" }, noCard))) ?? "", /protected/, "control: .git/config by its own name is refused");
    const refused = await refusal(requests.write({ sessionId: "s", path: join(cwd, "g/config"), content: `${before}${fsmonitorTo(marker)}` }, noCard));
    spawnSync("git", ["status"], { cwd }); // the editor's git, by itself
    const after = readFileSync(join(cwd, ".git/config"), "utf8");
    assert.ok(refused !== undefined && after === before && !fs.existsSync(marker), `fs/write_text_file of g/config was ${refused ? `refused (${refused})` : "accepted"}; .git/config now:\n${after}\ngit status ran the fsmonitor: ${fs.existsSync(marker)}`);
  });

  it("a symlinked protected name (.vscode -> config/vscode): its target, read-only in the sandbox, is protected for ACP writes, editor_edit and a rewind", async () => {
    fs.mkdirSync(join(cwd, "config/vscode"), { recursive: true });
    fs.writeFileSync(join(cwd, "config/vscode/tasks.json"), '{"version":"2.0.0","tasks":[]}\n');
    symlinkSync("config/vscode", join(cwd, ".vscode"));
    const said = await inSandbox("(echo x >> config/vscode/tasks.json && echo WROTE-TARGET) 2>&1; true");
    assert.doesNotMatch(said, /WROTE-TARGET/, "control: the sandbox keeps the link's target read-only");
    const target = join(cwd, "config/vscode/tasks.json");
    const task = '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"touch /tmp/pwned","runOptions":{"runOn":"folderOpen"}}]}\n';
    const acpRefused = await refusal(fileRequests(cwd).write({ sessionId: "s", path: target, content: task }, noCard));
    const seen = {
      acpWriteRefused: acpRefused !== undefined,
      editorEditSeesProtected: isProtectedPath(target, { workspaces: [cwd] }), // as editor_edit asks (its workspace folders)
      rewindRefuses: "refused" in placeOf([realWorkspace(cwd)], target, "write"),
    };
    assert.deepEqual(seen, { acpWriteRefused: true, editorEditSeesProtected: true, rewindRefuses: true }, `.vscode/tasks.json now: ${readFileSync(join(cwd, ".vscode/tasks.json"), "utf8")}`);
  });

  it("a .git file's git dir (git init --separate-git-dir), read-only in the sandbox, is protected for ACP writes, editor_edit and a rewind", async () => {
    execFileSync("git", ["init", "-q", `--separate-git-dir=${join(cwd, "gitmeta")}`, cwd]);
    const said = await inSandbox("(echo x >> gitmeta/config && echo WROTE-GITDIR) 2>&1; true");
    assert.doesNotMatch(said, /WROTE-GITDIR/, "control: the sandbox keeps the git dir read-only");
    const config = join(cwd, "gitmeta/config");
    const before = readFileSync(config, "utf8");
    const acpRefused = await refusal(fileRequests(cwd).write({ sessionId: "s", path: config, content: `${before}${fsmonitorTo(marker)}` }, noCard));
    spawnSync("git", ["status"], { cwd });
    const seen = {
      acpWriteRefused: acpRefused !== undefined,
      fsmonitorRan: fs.existsSync(marker),
      editorEditSeesProtected: isProtectedPath(config, { workspaces: [cwd] }),
      rewindRefuses: "refused" in placeOf([realWorkspace(cwd)], config, "write"),
    };
    assert.deepEqual(seen, { acpWriteRefused: true, fsmonitorRan: false, editorEditSeesProtected: true, rewindRefuses: true });
  });

  it("pi/omp sandboxed whole: a write call naming a home secret does not have the editor copy it into the checkpoint store the agent can read", async () => {
    const home = join(root, "home");
    const key = join(home, ".ssh/id_ed25519");
    fs.mkdirSync(dirname(key), { recursive: true });
    fs.writeFileSync(key, "-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-KEY-MATERIAL\n");
    // The extension's store (<globalStorage>/checkpoints, here code-server's), a writable root of pi's and omp's sandbox (agent-sandbox.ts).
    const store = join(home, ".local/share/code-server/User/globalStorage/pi.pi-vscode/checkpoints");
    fs.mkdirSync(store, { recursive: true });
    const hidden = await inSandbox(`cat ${key} 2>&1; true`, { home, writableRoots: [store] });
    assert.doesNotMatch(hidden, /SECRET-KEY-MATERIAL/, "control: the sandbox hides ~/.ssh from the agent");
    // The agent's model calls write on the key (the call fails in the sandbox: ~/.ssh is hidden there). The editor records
    // the file the call names when tool_execution_start arrives, as recording.ts does for a pi.agent.command agent
    // (changedFile: toolTargetPath for write and edit; captureNow: the file on disk when no editor has it open; recording.ts
    // imports vscode, so its three lines are repeated here).
    const target = toolTargetPath({ path: key, content: "" }, cwd);
    if (target) createCheckpointRecorder(store, DEFAULT_MAX_FILE_BYTES)("session", "turn", target, () => captureFile(target, DEFAULT_MAX_FILE_BYTES), Date.now(), true);
    const found = await inSandbox(`grep -rh SECRET-KEY-MATERIAL ${store} 2>/dev/null; true`, { home, writableRoots: [store] });
    assert.doesNotMatch(found, /SECRET-KEY-MATERIAL/, `the agent read the hidden key from the checkpoint store (the editor recorded ${target}): ${found}`);
  });

  it("home opened as the workspace: ACP fs/read_text_file does not hand a sandboxed agent the key its sandbox hides", async () => {
    const key = join(cwd, ".ssh/id_ed25519");
    fs.mkdirSync(dirname(key), { recursive: true });
    fs.writeFileSync(key, "-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-KEY-MATERIAL\n");
    const hidden = await inSandbox(`cat ${key} 2>&1; true`, { home: cwd });
    assert.doesNotMatch(hidden, /SECRET-KEY-MATERIAL/, "control: the sandbox hides ~/.ssh from the agent");
    const read = await fileRequests(cwd, cwd).read({ sessionId: "s", path: key }).then((answer) => answer.content, (error: unknown) => `refused: ${String(error)}`);
    assert.doesNotMatch(read, /SECRET-KEY-MATERIAL/, "fs/read_text_file gave the agent the key its sandbox hides");
  });

  it("home opened as the workspace: a write call naming ~/.ssh/id_ed25519 does not have the editor copy the key into the checkpoint store", async () => {
    const home = cwd;
    const key = join(home, ".ssh/id_ed25519");
    fs.mkdirSync(dirname(key), { recursive: true });
    fs.writeFileSync(key, "-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-KEY-MATERIAL\n");
    const store = join(root, "store");
    fs.mkdirSync(store);
    // As above (recording.ts's lines), the key now inside the workspace: judged by the extension host's home.
    const target = toolTargetPath({ path: ".ssh/id_ed25519", content: "" }, cwd, { HOME: home });
    if (target) createCheckpointRecorder(store, DEFAULT_MAX_FILE_BYTES)("session", "turn", target, () => captureFile(target, DEFAULT_MAX_FILE_BYTES), Date.now(), true);
    const found = await inSandbox(`grep -rh SECRET-KEY-MATERIAL ${store} 2>/dev/null; true`, { home, writableRoots: [store] });
    assert.doesNotMatch(found, /SECRET-KEY-MATERIAL/, `the agent read the hidden key from the checkpoint store (the editor recorded ${target}): ${found}`);
  });
});

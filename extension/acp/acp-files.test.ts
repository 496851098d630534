import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { promises, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { writeVerified, type WriteJudge } from "../host-tools/verified-write";
import { FileRequests } from "./acp-files";

describe("ACP fs/read_text_file for a sandboxed agent (acp-files.ts)", () => {
  let home: string;
  beforeEach(() => (home = realpathSync(mkdtempSync(join(tmpdir(), "acp-files-")))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("does not read Pi's logins where PI_CODING_AGENT_DIR puts its agent dir (a dotfiles repository as the workspace)", async () => {
    const dotfiles = join(home, "dotfiles");
    mkdirSync(join(dotfiles, "pi-agent"), { recursive: true });
    writeFileSync(join(dotfiles, "pi-agent", "auth.json"), '{"anthropic":{"key":"API-KEY"}}\n');
    writeFileSync(join(dotfiles, "notes.txt"), "NOTES\n");
    const files = { readTextFile: (path: string) => promises.readFile(path, "utf8"), writeTextFile: () => Promise.resolve() };
    const requests = new FileRequests({ cwd: dotfiles, files, sandboxed: true, home, agentDir: join(dotfiles, "pi-agent") }, () => "the agent");
    await assert.rejects(requests.read({ sessionId: "s", path: join(dotfiles, "pi-agent", "auth.json") }), /hidden from the agent/);
    assert.equal((await requests.read({ sessionId: "s", path: join(dotfiles, "notes.txt") })).content, "NOTES\n");
  });

  it("never reads the key its sandbox hides while the agent's job flips a link between a workspace file and it (home as the workspace)", async function () {
    this.timeout(30_000);
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
    writeFileSync(join(home, "notes.txt"), "NOTES\n");
    symlinkSync("notes.txt", join(home, "flip"));
    // The editor's services for a file not open in it (editor-services.ts): the bytes the door read, else the disk.
    const files = { readTextFile: async (path: string, verified?: Uint8Array) => (verified ? Buffer.from(verified).toString() : promises.readFile(path, "utf8")), writeTextFile: () => Promise.resolve() };
    const requests = new FileRequests({ cwd: home, files, sandboxed: true, home }, () => "the agent");
    const flipper = spawn("sh", ["-c", 'while :; do ln -sfn "$1" l1 && mv -T l1 flip; ln -sfn "$2" l2 && mv -T l2 flip; done', "sh", "notes.txt", join(home, ".ssh", "id_ed25519")], { cwd: home, stdio: "ignore", detached: true });
    const seen = { notes: 0, refused: 0, key: 0 };
    try {
      for (let i = 0; i < 3000; i++) {
        try {
          const { content } = await requests.read({ sessionId: "s", path: join(home, "flip") });
          if (content.includes("PRIVATE KEY")) seen.key++;
          else seen.notes++;
        } catch {
          seen.refused++;
        }
      }
    } finally {
      process.kill(-flipper.pid!, "SIGKILL");
      await new Promise((resolve) => flipper.once("exit", resolve));
    }
    assert.equal(seen.key, 0, JSON.stringify(seen));
    assert.ok(seen.notes > 0 && seen.refused > 0, JSON.stringify(seen));
  });

  it("does not write into a home secret its sandbox hides (home as the workspace): ~/.aws/config's credential_process, ~/.kube/config's exec, ~/.gnupg's pinentry", async () => {
    for (const dir of [".aws", ".kube", ".gnupg", ".docker"]) mkdirSync(join(home, dir));
    const written: string[] = [];
    const files = { readTextFile: () => Promise.resolve(""), writeTextFile: (path: string) => (written.push(path), Promise.resolve()) };
    const requests = new FileRequests({ cwd: home, files, sandboxed: true, home }, () => "the agent");
    const plants: Record<string, string> = {
      ".aws/config": "[default]\ncredential_process = sh -c 'touch /tmp/escaped'\n",
      ".kube/config": "users:\n- user:\n    exec:\n      command: sh\n",
      ".gnupg/gpg-agent.conf": "pinentry-program /tmp/evil\n",
      ".docker/config.json": '{"credsStore":"evil"}\n',
      ".netrc": "machine example.com login me password x\n",
    };
    for (const [name, content] of Object.entries(plants)) {
      await assert.rejects(requests.write({ sessionId: "s", path: join(home, name), content }, () => () => undefined), /hidden from the agent by its sandbox/, name);
    }
    assert.deepEqual(written, []);
    await requests.write({ sessionId: "s", path: join(home, "notes.txt"), content: "fine" }, () => () => undefined);
    assert.deepEqual(written, [join(home, "notes.txt")]);
  });

  it("never writes ~/.aws/config while the agent's job flips a link between a workspace file and it (home as the workspace)", async function () {
    this.timeout(30_000);
    mkdirSync(join(home, ".aws"));
    writeFileSync(join(home, ".aws", "config"), "[default]\n");
    writeFileSync(join(home, "notes.txt"), "NOTES\n");
    symlinkSync("notes.txt", join(home, "flip"));
    // The editor's services for a file not open in it (editor-services.ts): judged as opened when asked, else by name.
    const writeTextFile = async (path: string, content: string, judge?: { folders: readonly string[]; why: WriteJudge }) => {
      if (judge) return writeVerified(path, content, judge.folders, judge.why, path);
      await promises.mkdir(dirname(path), { recursive: true });
      await promises.writeFile(path, content);
    };
    const requests = new FileRequests({ cwd: home, files: { readTextFile: () => Promise.resolve(""), writeTextFile }, sandboxed: true, home }, () => "the agent");
    const flipper = spawn("sh", ["-c", 'while :; do ln -sfn "$1" l1 && mv -T l1 flip; ln -sfn "$2" l2 && mv -T l2 flip; done', "sh", "notes.txt", join(home, ".aws", "config")], { cwd: home, stdio: "ignore", detached: true });
    const seen = { written: 0, refused: 0 };
    try {
      for (let i = 0; i < 3000; i++) {
        try {
          await requests.write({ sessionId: "s", path: join(home, "flip"), content: "[default]\ncredential_process = sh -c evil\n" }, () => () => undefined);
          seen.written++;
        } catch {
          seen.refused++;
        }
      }
    } finally {
      process.kill(-flipper.pid!, "SIGKILL");
      await new Promise((resolve) => flipper.once("exit", resolve));
    }
    assert.equal(readFileSync(join(home, ".aws", "config"), "utf8"), "[default]\n", JSON.stringify(seen));
    assert.ok(seen.written > 0 && seen.refused > 0, JSON.stringify(seen));
    assert.match(readFileSync(join(home, "notes.txt"), "utf8"), /credential_process/, "the workspace file written");
  });
});

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readVerified } from "./verified-file";
import { displayPath, filesReallyIn, realFolders, realRootsFor, resolveWorkspacePath } from "./workspace-paths";

describe("editor tools: workspace paths", () => {
  const root = path.resolve("/ws/app");
  const other = path.resolve("/ws/lib");
  const folders = [root, other];

  it("resolves relative paths against the first folder and shows them relative, with forward slashes", () => {
    const resolved = resolveWorkspacePath("src/a.ts", folders);
    assert.equal(resolved.absPath, path.join(root, "src", "a.ts"));
    assert.equal(resolved.folder, root);
    assert.equal(resolved.display, "src/a.ts");
  });

  it("accepts absolute paths, file:// URLs and @-mentions inside any folder", () => {
    assert.equal(resolveWorkspacePath(path.join(root, "x.ts"), folders).display, "x.ts");
    assert.equal(resolveWorkspacePath(`@src/b.ts`, folders).display, "src/b.ts");
    assert.equal(resolveWorkspacePath(`file://${path.join(root, "c.ts")}`, folders).absPath, path.join(root, "c.ts"));
    const inOther = resolveWorkspacePath(path.join(other, "util.ts"), folders);
    assert.equal(inOther.folder, other);
    assert.equal(inOther.display, path.join(other, "util.ts"), "a second folder's file is shown absolute, so it resolves back");
    assert.equal(resolveWorkspacePath(inOther.display, folders).absPath, inOther.absPath);
  });

  it("refuses paths that leave the workspace, with a clear message", () => {
    for (const input of ["../secret.txt", "/etc/passwd", "src/../../app2/x", path.resolve("/ws/app-other/x")]) {
      assert.throws(() => resolveWorkspacePath(input, folders), /outside the workspace/, input);
    }
  });

  it("refuses a path that leads outside through a symlink, a dangling one included", () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "ws-paths-"));
    try {
      const ws = path.join(base, "ws");
      fs.mkdirSync(path.join(ws, "src"), { recursive: true });
      fs.writeFileSync(path.join(base, "secret.txt"), "outside");
      fs.symlinkSync(base, path.join(ws, "up"));
      fs.symlinkSync(path.join(base, "new.txt"), path.join(ws, "dangling"));
      fs.symlinkSync(path.join(ws, "src"), path.join(ws, "inner"));
      for (const input of ["up/secret.txt", "dangling", "up/ws/../secret.txt"]) {
        assert.throws(() => resolveWorkspacePath(input, [ws]), /outside the workspace/, input);
      }
      assert.equal(resolveWorkspacePath("inner/a.ts", [ws]).display, "inner/a.ts", "a link that stays inside is fine");
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it("home opened as the workspace: leaves alone the secrets the agents' sandbox hides (~/.ssh, ~/.aws), through links too", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "ws-home-"));
    try {
      for (const file of [".ssh/id_ed25519", ".aws/credentials", "notes.txt"]) {
        fs.mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
        fs.writeFileSync(path.join(home, file), "x");
      }
      fs.symlinkSync(".ssh", path.join(home, "keys"));
      const hiddenIn = { home };
      for (const input of [".ssh/id_ed25519", `${home}/.aws/credentials`, "keys/id_ed25519", ".ssh"]) {
        assert.throws(() => resolveWorkspacePath(input, [home], hiddenIn), /which the sandbox hides/, input);
        assert.ok(resolveWorkspacePath(input, [home]).absPath, `${input}: without a sandbox, a workspace file like any other`);
      }
      assert.equal(resolveWorkspacePath("notes.txt", [home], hiddenIn).display, "notes.txt");
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it("refuses an empty path and works only with an open folder", () => {
    assert.throws(() => resolveWorkspacePath("  ", folders), /empty/);
    assert.throws(() => resolveWorkspacePath("a.ts", []), /No workspace folder/);
  });

  it("names the folder itself '.' and nothing outside", () => {
    assert.equal(displayPath(root, folders), ".");
    assert.equal(displayPath(path.resolve("/tmp/x"), folders), undefined);
  });

  it("a file handed to an agent (an @-mention, a dropped file): read only where it really is, whatever link is at its name", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "ws-attach-"));
    const read = (absPath: string) => readVerified(absPath, realRootsFor(absPath, [ws]), { home }, path.basename(absPath)).then((b) => Buffer.from(b).toString());
    const ws = path.join(base, "ws");
    const home = path.join(base, "home");
    const elsewhere = path.join(base, "elsewhere");
    try {
      for (const dir of [path.join(ws, "src"), path.join(home, ".aws"), elsewhere]) fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(ws, "src", "plain.md"), "workspace text");
      fs.writeFileSync(path.join(home, ".aws", "credentials"), "aws key");
      fs.writeFileSync(path.join(elsewhere, "notes.md"), "outside text");
      // Links a sandboxed command or a cloned repository can put at a workspace file's name.
      fs.symlinkSync(path.join(home, ".aws", "credentials"), path.join(ws, "src", "to-secret.md"));
      fs.symlinkSync("/proc/self/environ", path.join(ws, "src", "to-environ.md"));
      fs.symlinkSync(path.join(elsewhere, "notes.md"), path.join(ws, "src", "to-outside.md"));
      fs.symlinkSync(path.join(ws, "src", "plain.md"), path.join(ws, "src", "to-inside.md"));
      fs.symlinkSync(elsewhere, path.join(ws, "linked-dir"));
      // Named outside: the user picked that file; a link at that name is not.
      fs.symlinkSync(path.join(home, ".aws", "credentials"), path.join(elsewhere, "innocent.md"));
      fs.symlinkSync(elsewhere, path.join(base, "elsewhere-alias"));

      assert.equal(await read(path.join(ws, "src", "plain.md")), "workspace text");
      assert.equal(await read(path.join(ws, "src", "to-inside.md")), "workspace text", "a link inside the workspace is followed");
      for (const name of ["src/to-secret.md", "src/to-environ.md", "src/to-outside.md", "linked-dir/notes.md"]) {
        await assert.rejects(read(path.join(ws, name)), /leads outside the workspace/, name);
      }
      assert.equal(await read(path.join(elsewhere, "notes.md")), "outside text", "a file named outside as itself");
      assert.equal(await read(path.join(base, "elsewhere-alias", "notes.md")), "outside text", "its folder reached through a link of the user's");
      await assert.rejects(read(path.join(elsewhere, "innocent.md")), /leads outside the workspace/, "a link named outside");
      await assert.rejects(read(path.join(home, ".aws", "credentials")), /which the sandbox hides/, "a hidden secret, even named as itself");
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it("names the agent may see of a search that follows links (a folder mention's listing): only those whose folder really is in the workspace, out of the hidden secrets", () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ws-names-")));
    const ws = path.join(base, "ws");
    const home = path.join(base, "home");
    try {
      for (const dir of [path.join(ws, "src", "deep"), path.join(home, ".ssh"), path.join(home, ".password-store", "bank"), path.join(base, "elsewhere")]) fs.mkdirSync(dir, { recursive: true });
      // What a cloned repository ships (or a command makes): folder links out; VS Code's search follows them (search.followSymlinks).
      fs.symlinkSync(path.join(home, ".ssh"), path.join(ws, "keys"));
      fs.symlinkSync(path.join(home, ".password-store"), path.join(ws, "src", "store"));
      fs.symlinkSync(path.join(base, "elsewhere"), path.join(ws, "out"));
      fs.symlinkSync(path.join(ws, "src", "deep"), path.join(ws, "alias"));
      fs.symlinkSync(path.join(home, ".ssh", "id_ed25519"), path.join(ws, "src", "key.txt"));
      const found = ["src/a.ts", "src/deep/b.ts", "alias/b.ts", "src/key.txt", "keys/id_ed25519", "keys/config", "src/store/bank/login.gpg", "out/notes.md"].map((name) => path.join(ws, name));
      const kept = filesReallyIn(found, realFolders([ws]), { home }).map((file) => path.relative(ws, file));
      // A link at a file's own name is the workspace's name (its text is what the door refuses).
      assert.deepEqual(kept, ["src/a.ts", "src/deep/b.ts", "alias/b.ts", "src/key.txt"]);
      // Home opened as the workspace: its hidden secrets' names are not the agent's either.
      const inHome = ["notes.md", ".ssh/id_ed25519", ".password-store/bank/login.gpg"].map((name) => path.join(home, name));
      assert.deepEqual(filesReallyIn(inHome, realFolders([home]), { home }), [path.join(home, "notes.md")]);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});

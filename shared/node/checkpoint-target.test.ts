import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { captureTarget, toolTargetPath } from "./checkpoint-target";

describe("checkpoints: what the editor records before an agent's tool changes a file (checkpoint-target.ts)", () => {
  let home: string;
  beforeEach(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), "checkpoint-target-")));
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
    writeFileSync(join(home, "notes.txt"), "NOTES\n");
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("records neither a hidden secret named nor one a link leads to", () => {
    symlinkSync(".ssh/id_ed25519", join(home, "key"));
    assert.equal(toolTargetPath({ path: ".ssh/id_ed25519" }, home, { HOME: home }), undefined);
    assert.equal(toolTargetPath({ path: "key" }, home, { HOME: home }), undefined);
    assert.equal(toolTargetPath({ path: "notes.txt" }, home, { HOME: home }), join(home, "notes.txt"));
  });

  // Home as the workspace; the agent's job flips a link between a workspace file and the key its
  // sandbox hides; each write call is judged by toolTargetPath, then captured (the store is a
  // writable root of the agent's sandbox).
  it("never records the key while a job flips a link between a workspace file and it", async function () {
    this.timeout(30_000);
    symlinkSync("notes.txt", join(home, "flip"));
    const flipper = spawn("sh", ["-c", 'while :; do ln -sfn "$1" l1 && mv -T l1 flip; ln -sfn "$2" l2 && mv -T l2 flip; done', "sh", "notes.txt", join(home, ".ssh", "id_ed25519")], { cwd: home, stdio: "ignore", detached: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const seen = { key: 0, notes: 0, refused: 0 };
    try {
      for (const end = Date.now() + 3000; Date.now() < end; ) {
        const target = toolTargetPath({ path: "flip" }, home, { HOME: home });
        const captured = target === undefined ? undefined : captureTarget(target, home, { HOME: home });
        const text = captured && "content" in captured ? String(captured.content) : "";
        if (text.includes("PRIVATE KEY")) seen.key++;
        else if (text.includes("NOTES")) seen.notes++;
        else seen.refused++;
      }
    } finally {
      process.kill(-flipper.pid!, "SIGKILL");
      await new Promise((resolve) => flipper.once("exit", resolve));
    }
    assert.equal(seen.key, 0, JSON.stringify(seen));
    assert.ok(seen.notes > 0, JSON.stringify(seen));
  });

  it("records nothing of /proc, even with the working folder at / (the editor's own environment)", () => {
    assert.deepEqual(captureTarget("/proc/self/environ", "/", { HOME: home }), { skipped: "unreadable" });
    symlinkSync("/proc/self/environ", join(home, "env-link"));
    assert.deepEqual(captureTarget(join(home, "env-link"), "/", { HOME: home }), { skipped: "unreadable" });
    assert.ok("content" in captureTarget(join(home, "notes.txt"), "/", { HOME: home }), "a plain file under / is still recorded");
  });
});

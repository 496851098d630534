import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mountedElsewhere } from "./foreign-mounts";

const bwrapRuns = process.platform === "linux" && spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-user", "true"]).status === 0;

describe("sandbox: mount points in other namespaces (foreign-mounts.ts)", () => {
  it("finds a real bwrap sandbox's mount on a stub while it runs, not after; a name with a space and a tab", async function () {
    if (!bwrapRuns) this.skip(); // no bubblewrap here: nothing to find either
    // Each wait ends as soon as the kernel shows it (~30 ms here); on a machine loaded with other
    // test runs the sandbox's teardown once took over 5 s.
    this.timeout(60_000);
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "foreign mounts ")));
    try {
      const stub = join(dir, ".vs\tcode");
      const bwrap = spawn("bwrap", ["--ro-bind", "/", "/", "--bind", dir, dir, "--unshare-user", "--unshare-pid", "--die-with-parent", "--tmpfs", stub, "--remount-ro", stub, "sleep", "30"], { stdio: "ignore" });
      try {
        const deadline = Date.now() + 20_000;
        while (!mountedElsewhere([stub]).has(stub) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
        assert.deepEqual([...mountedElsewhere([stub, join(dir, "other")])], [stub], "the sandbox's mount, only it");
        assert.ok(existsSync(stub), "bwrap made the mount point on the host");
      } finally {
        bwrap.kill("SIGKILL");
        await new Promise((r) => bwrap.once("exit", r));
      }
      const deadline = Date.now() + 20_000;
      while (mountedElsewhere([stub]).size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      assert.equal(mountedElsewhere([stub]).size, 0, "gone with the sandbox");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds nothing for paths no namespace mounts, and nothing for none", () => {
    const dir = mkdtempSync(join(tmpdir(), "foreign-mounts-"));
    mkdirSync(join(dir, ".git"));
    assert.equal(mountedElsewhere([join(dir, ".git")]).size, 0);
    assert.equal(mountedElsewhere([]).size, 0);
    rmSync(dir, { recursive: true, force: true });
  });
});

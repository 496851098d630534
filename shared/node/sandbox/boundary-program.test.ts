import { strict as assert } from "node:assert";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findBoundaryProgram, whyNotBoundary } from "./boundary-program";

describe("sandbox: where bwrap and nsenter are taken from", () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync("/var/tmp/pi-boundary-"));
    chmodSync(dir, 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const program = (folder: string, mode = 0o755) => {
    mkdirSync(folder, { recursive: true, mode: 0o755 });
    const path = join(folder, "nsenter");
    writeFileSync(path, "#!/bin/sh\n", { mode });
    chmodSync(path, mode);
    return path;
  };

  it("takes the system's own (root's, written by no one else)", () => {
    assert.equal(whyNotBoundary("/usr/bin/nsenter", []), undefined);
    assert.equal(findBoundaryProgram("nsenter", "").path, "/usr/bin/nsenter");
  });

  it("refuses one in a writable root, one reached through a link into it, and takes the next on the PATH", () => {
    const planted = program(join(dir, "ws/bin"));
    symlinkSync(join(dir, "ws/bin"), join(dir, "elsewhere"));
    assert.match(whyNotBoundary(planted, [join(dir, "ws")]) ?? "", /which sandboxed commands can write/);
    assert.match(whyNotBoundary(join(dir, "elsewhere/nsenter"), [join(dir, "ws")]) ?? "", /which sandboxed commands can write/);
    const found = findBoundaryProgram("nsenter", `${join(dir, "elsewhere")}:/usr/bin`, [join(dir, "ws")]);
    assert.equal(found.path, "/usr/bin/nsenter");
    assert.equal(found.refused?.path, join(dir, "elsewhere/nsenter"));
  });

  it("refuses one that anyone but root could replace: a user's own, a file or a folder others may write", () => {
    const mine = program(join(dir, "a"));
    if (process.getuid?.() !== 0) {
      assert.match(whyNotBoundary(mine, []) ?? "", /not owned by root/);
      return;
    }
    assert.equal(whyNotBoundary(mine, []), undefined);
    assert.match(whyNotBoundary(program(join(dir, "b"), 0o777), []) ?? "", /writable by others/);
    const open = program(join(dir, "c"));
    chmodSync(join(dir, "c"), 0o777);
    assert.match(whyNotBoundary(open, []) ?? "", /writable by others/);
    // Sticky (as /nix/store, /var/tmp): what root owns there stays root's.
    chmodSync(join(dir, "c"), 0o1777);
    assert.equal(whyNotBoundary(open, []), undefined);
  });
});

import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scanProtected } from "./protected-scan";
import { ProtectedWatch } from "./protected-watch";

describe("sandbox: the watch that notices a protected name appearing while commands run", () => {
  let root: string;
  let watch: ProtectedWatch | undefined;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), "protected-watch-"))));
  afterEach(() => {
    watch?.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  /** Resolves with the first protected path reported. */
  function next(): Promise<string> {
    return new Promise((resolve) => (watch = new ProtectedWatch(scanProtected([root]).folders, resolve)));
  }

  it("sees a .git made at once several new folders down (mkdir -p), and a .vscode in an existing folder", async () => {
    mkdirSync(join(root, "old"));
    let seen = next();
    mkdirSync(join(root, "a/b/c/.git"), { recursive: true });
    assert.match(await seen, /\/\.git$/);
    watch?.dispose();
    seen = next();
    writeFileSync(join(root, "old/.vscode"), "");
    assert.equal(await seen, join(root, "old/.vscode"));
  });

  it("sees one in a folder removed and made again at the same path (a new folder, watched anew)", async () => {
    mkdirSync(join(root, "sub"));
    const reported: string[] = [];
    watch = new ProtectedWatch(scanProtected([root]).folders, (path) => reported.push(path));
    rmSync(join(root, "sub"), { recursive: true });
    await new Promise((r) => setTimeout(r, 50));
    mkdirSync(join(root, "sub"));
    await new Promise((r) => setTimeout(r, 50));
    mkdirSync(join(root, "sub/.git"));
    for (let i = 0; i < 100 && reported.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(reported, [join(root, "sub/.git")]);
  });

  it("among many new names in one folder at once (the folder listed once, not a look per name), a new folder's .git is still seen", async () => {
    const seen = next();
    for (let i = 0; i < 200; i++) writeFileSync(join(root, `u${i}`), "");
    mkdirSync(join(root, "made/.git"), { recursive: true });
    assert.equal(await seen, join(root, "made/.git"));
  });

  it("watches no more folders than its cap, and says so", () => {
    for (let i = 0; i < 10; i++) mkdirSync(join(root, `d${i}`));
    watch = new ProtectedWatch(scanProtected([root]).folders, () => undefined, 4);
    assert.equal(watch.size, 4);
    assert.equal(watch.partial, true);
  });
});

import { strict as assert } from "node:assert";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expandPath, resolveReadPath, resolveToCwd, toPosixRelative } from "./paths";

describe("tools/paths", () => {
  it("resolves relative to cwd and keeps absolute paths", () => {
    assert.equal(resolveToCwd("src/a.ts", "/work/p"), "/work/p/src/a.ts");
    assert.equal(resolveToCwd("../b", "/work/p"), "/work/b");
    assert.equal(resolveToCwd("/etc/hosts", "/work/p"), "/etc/hosts");
  });

  it("expands ~ and ~/, drops a leading @, plain-spaces Unicode spaces, decodes file URLs", () => {
    assert.equal(expandPath("~", "/home/u"), "/home/u");
    assert.equal(expandPath("~/x/y", "/home/u"), "/home/u/x/y");
    assert.equal(expandPath("~other/x", "/home/u"), "~other/x");
    assert.equal(expandPath("@src/a.ts"), "src/a.ts");
    assert.equal(expandPath("a\u00A0b"), "a b");
    assert.equal(expandPath(pathToFileURL("/tmp/a b.txt").href), "/tmp/a b.txt");
    assert.equal(resolveToCwd("~/f", "/cwd", "/home/u"), "/home/u/f");
  });

  it("finds the macOS screenshot spelling when the typed name does not exist", async () => {
    const real = join("/shots", "Screenshot 2024 at 10.00.00\u202FAM.png");
    const exists = async (p: string) => p === real;
    assert.equal(await resolveReadPath("Screenshot 2024 at 10.00.00 AM.png", "/shots", exists), real);
    assert.equal(await resolveReadPath("missing.png", "/shots", exists), "/shots/missing.png");
  });

  it("relativizes with forward slashes, falling back to the absolute path outside the base", () => {
    assert.equal(toPosixRelative("/a", "/a/b/c"), "b/c");
    assert.equal(toPosixRelative("/a", "/x/y"), "/x/y");
  });
});

import { strict as assert } from "node:assert";
import { symlinkSync } from "node:fs";
import { isUnder, listDir, resolveAgentDir, resolveUserPath } from "./resources";
import { tempTree } from "../../../test/fixtures/host/context-tree";

describe("context resources helpers", () => {
  it("agent dir: $PI_CODING_AGENT_DIR (with ~) or ~/.pi/agent", () => {
    assert.equal(resolveAgentDir({}, "/home/u"), "/home/u/.pi/agent");
    assert.equal(resolveAgentDir({ PI_CODING_AGENT_DIR: "~/cfg/pi" }, "/home/u"), "/home/u/cfg/pi");
    assert.equal(resolveAgentDir({ PI_CODING_AGENT_DIR: "/etc/pi/" }, "/home/u"), "/etc/pi");
    assert.equal(resolveAgentDir({ PI_CODING_AGENT_DIR: "" }, "/home/u"), "/home/u/.pi/agent");
  });

  it("user paths: trimmed, ~ and file:// understood, relative to a base", () => {
    assert.equal(resolveUserPath(" skills/x ", "/work", "/home/u"), "/work/skills/x");
    assert.equal(resolveUserPath("~", "/work", "/home/u"), "/home/u");
    assert.equal(resolveUserPath("~/s", "/work", "/home/u"), "/home/u/s");
    assert.equal(resolveUserPath("file:///opt/s%20k", "/work", "/home/u"), "/opt/s k");
    assert.equal(isUnder("/a/b/c", "/a/b"), true);
    assert.equal(isUnder("/a/bc", "/a/b"), false);
    assert.equal(isUnder("/a/b", "/a/b/"), true);
  });

  it("listDir: byte order, symlinks followed, broken ones and missing folders skipped", () => {
    const t = tempTree("listdir-");
    try {
      t.write("d/b.md", "");
      t.write("d/B.md", "");
      t.write("d/a/x", "");
      symlinkSync(t.path("d/a"), t.path("d/link"));
      symlinkSync(t.path("d/nowhere"), t.path("d/broken"));
      assert.deepEqual(listDir(t.path("d")).map((e) => `${e.name}:${e.isDirectory ? "dir" : "file"}`), ["B.md:file", "a:dir", "b.md:file", "link:dir"]);
      assert.deepEqual(listDir(t.path("missing")), []);
    } finally {
      t.remove();
    }
  });
});

import { strict as assert } from "node:assert";
import { relative } from "node:path";
import { IgnoreRules } from "./ignore-rules";
import { collectSkillFiles } from "./skills";
import { skillMd, tempTree, type TempTree } from "../../../test/fixtures/host/context-tree";

describe("IgnoreRules", () => {
  let t: TempTree;
  beforeEach(() => (t = tempTree("ignore-")));
  afterEach(() => t.remove());

  it("applies gitignore patterns from the root and from subfolders (prefixed)", () => {
    t.write("root/.gitignore", "# comment\n*.tmp\n/only-top/\nbuild/\n!keep.tmp\ndocs/**/draft.md\n");
    t.write("root/sub/.ignore", "local.md\n");
    t.write("root/sub/.fdignore", "x?.md\n");
    const rules = new IgnoreRules(t.path("root"));
    rules.addFolder(t.path("root"));
    rules.addFolder(t.path("root/sub"));
    const ignored = (rel: string, dir = false): boolean => rules.ignores(t.path(`root/${rel}`), dir);

    assert.equal(ignored("a.tmp"), true);
    assert.equal(ignored("deep/b.tmp"), true);
    assert.equal(ignored("keep.tmp"), false);
    assert.equal(ignored("only-top", true), true);
    // pi drops a leading "/" before prefixing, so a root-level "/only-top/" matches at any depth.
    assert.equal(ignored("nested/only-top", true), true);
    assert.equal(ignored("build", true), true);
    assert.equal(ignored("build"), false, "a trailing slash matches folders only");
    assert.equal(ignored("build/x/SKILL.md"), true, "below an ignored folder");
    assert.equal(ignored("docs/a/b/draft.md"), true);
    assert.equal(ignored("docs/draft.md"), true);
    assert.equal(ignored("sub/local.md"), true);
    assert.equal(ignored("sub/deeper/local.md"), false, "sub/.ignore patterns are anchored at sub/");
    assert.equal(ignored("local.md"), false);
    assert.equal(ignored("sub/x1.md"), true);
    assert.equal(ignored("sub/x12.md"), false);
  });

  it("matches case-insensitively and reads escapes and trailing spaces as pi's `ignore` does", () => {
    t.write("root/.gitignore", "Build/\n*.TMP\nfoo\\ bar/\ntrail  \n\\#hash/\n");
    const rules = new IgnoreRules(t.path("root"));
    rules.addFolder(t.path("root"));
    const ignored = (rel: string, dir = false): boolean => rules.ignores(t.path(`root/${rel}`), dir);
    assert.equal(ignored("build", true), true);
    assert.equal(ignored("a.tmp"), true);
    assert.equal(ignored("foo bar", true), true);
    assert.equal(ignored("trail"), true);
    assert.equal(ignored("#hash", true), true);
  });

  it("a malformed pattern ([z-a]) in a skill folder's .gitignore neither fails the scan nor drops the other rules", () => {
    t.write("root/.gitignore", "[z-a]\nbuild/\n");
    t.write("root/a/SKILL.md", skillMd({ description: "a" }));
    t.write("root/build/SKILL.md", skillMd({ description: "build" }));
    assert.deepEqual(collectSkillFiles(t.path("root"), "pi").map((f) => relative(t.path("root"), f)), ["a/SKILL.md"]);
  });

  it("a folder without ignore files ignores nothing", () => {
    const rules = new IgnoreRules(t.path("root"));
    rules.addFolder(t.path("root"));
    assert.equal(rules.ignores(t.path("root/anything"), true), false);
  });

});

import { strict as assert } from "node:assert";
import { IgnoreRules } from "./ignore-rules";
import { tempTree, type TempTree } from "./test-fixtures";

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
});

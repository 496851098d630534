import { strict as assert } from "node:assert";
import { relative } from "node:path";
import { expandPromptTemplate, loadPromptTemplates, parseCommandArgs, substituteArgs, type PromptTemplateLoadOptions } from "./prompt-templates";
import { LAYOUT, tempTree, writeProject, writeUserSetup, type TempTree } from "../../../test/fixtures/host/context-tree";

describe("prompt templates", () => {
  let t: TempTree;
  beforeEach(() => (t = tempTree("prompts-")));
  afterEach(() => t.remove());

  const options = (over: Partial<PromptTemplateLoadOptions> = {}): PromptTemplateLoadOptions => ({
    cwd: t.path(LAYOUT.cwd), agentDir: t.path(LAYOUT.agentDir), allowProject: true, ...over,
  });
  const rel = (p: string): string => relative(t.root, p);

  describe("discovery", () => {
    beforeEach(() => {
      writeUserSetup(t);
      writeProject(t);
    });

    it("project prompts (trusted) before the agent dir's, then --prompt-template; direct .md children only", () => {
      const { templates, diagnostics } = loadPromptTemplates(options({ extraPaths: [t.path("extra/xt.md"), "../../../../extra/none.md"] }));
      assert.deepEqual(templates.map((p) => `${p.name} ${p.sourceInfo.source}/${p.sourceInfo.scope} ${rel(p.sourceInfo.baseDir!)}`), [
        "dupt auto/project outer/repo/pkg/app/.pi",
        "proj auto/project outer/repo/pkg/app/.pi",
        "nodesc auto/user agent",
        "review auto/user agent",
        "xt local/temporary extra",
      ]);
      assert.deepEqual(diagnostics.map((d) => `${d.type} ${rel(d.path)} ${d.message}`), [
        "error extra/none.md prompt template path does not exist",
        `collision agent/prompts/dupt.md prompt template "/dupt" is already taken by ${t.path(`${LAYOUT.cwd}/.pi/prompts/dupt.md`)}`,
      ]);
    });

    it("descriptions: frontmatter, else the first non-empty line cut at 60 characters; argument-hint kept", () => {
      const { templates } = loadPromptTemplates(options({ allowProject: false }));
      const byName = new Map(templates.map((p) => [p.name, p]));
      assert.equal(byName.get("review")!.description, "Review the changes");
      assert.equal(byName.get("review")!.argumentHint, "[focus]");
      assert.equal(byName.get("nodesc")!.description, "A first line that is definitely longer than sixty characters...");
      assert.equal(byName.get("nodesc")!.argumentHint, undefined);
      assert.equal(byName.get("nodesc")!.content, "\n\nA first line that is definitely longer than sixty characters, to be cut\nsecond line\n");
      assert.equal(byName.get("review")!.content, "Review $1, then ${@:2}. All: $@. Third: ${3:-none}. Args: $ARGUMENTS.");
    });

    it("untrusted or --no-prompt-templates: only what is allowed; a folder path loads its .md files", () => {
      assert.deepEqual(loadPromptTemplates(options({ allowProject: false })).templates.map((p) => p.name), ["dupt", "nodesc", "review"]);
      const only = loadPromptTemplates(options({ includeDefaults: false, extraPaths: [t.path("agent/prompts")] }));
      // As in pi, an explicit folder is read without the dot-file and ignore-file filters.
      assert.deepEqual(only.templates.map((p) => `${p.name} ${p.sourceInfo.scope}`), [".hidden user", "dupt user", "nodesc user", "review user"]);
      assert.deepEqual(loadPromptTemplates(options({ includeDefaults: false })), { templates: [], diagnostics: [] });
    });

    it("a template with bad frontmatter is skipped with a warning", () => {
      t.write("agent/prompts/broken.md", "---\ndescription: a: b\n---\nx");
      const { templates, diagnostics } = loadPromptTemplates(options({ allowProject: false }));
      assert.ok(!templates.some((p) => p.name === "broken"));
      assert.equal(diagnostics[0]!.path, t.path("agent/prompts/broken.md"));
      assert.match(diagnostics[0]!.message, /invalid prompt template/);
    });
  });

  it("splits arguments with quotes, no escapes", () => {
    assert.deepEqual(parseCommandArgs(`a "b c"  'd "e"' f"g h"i ""`), ["a", "b c", 'd "e"', "fg hi"]);
    assert.deepEqual(parseCommandArgs("  "), []);
  });

  it("substitutes $N, $@, $ARGUMENTS, defaults and slices in one pass", () => {
    const args = ["one", "two three", "four"];
    const cases: [string, string][] = [
      ["$1|$2|$3|$4|$0", "one|two three|four||"],
      ["$@ / $ARGUMENTS", "one two three four / one two three four"],
      ["${1:-x} ${4:-dflt} ${@:-none}", "one dflt one two three four"],
      ["${@:2} | ${@:2:1} | ${@:0} | ${@:9}", "two three four | two three | one two three four | "],
      ["${1} $x $$1 ${ARGUMENTS:-a}", "${1} $x $one one two three four"],
      ["$10", ""],
    ];
    for (const [template, expected] of cases) assert.equal(substituteArgs(template, args), expected, template);
    assert.equal(substituteArgs("$1 ${@:-none}", []), " none");
    assert.equal(substituteArgs("$1", ["$2"]), "$2", "values are not substituted again");
  });

  it("expands /name args and leaves anything else", () => {
    const templates = [{ name: "review", description: "", content: "Review $1 (${@:2})", filePath: "/x/review.md", sourceInfo: { path: "/x/review.md", source: "local", scope: "temporary" as const, origin: "top-level" as const } }];
    assert.equal(expandPromptTemplate('/review a "b c"\nd', templates), "Review a (b c d)");
    assert.equal(expandPromptTemplate("/review", templates), "Review  ()");
    for (const text of ["review a", "/other a", " /review", "/review/x"]) assert.equal(expandPromptTemplate(text, templates), text);
  });

});

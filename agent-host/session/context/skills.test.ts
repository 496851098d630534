import { strict as assert } from "node:assert";
import { rmSync, symlinkSync } from "node:fs";
import { relative } from "node:path";
import { collectSkillFiles, expandSkillCommand, loadSkills, skillNameProblems, type SkillLoadOptions } from "./skills";
import { LAYOUT, skillMd, tempTree, writeProject, writeUserSetup, type TempTree } from "../../../test/fixtures/host/context-tree";

describe("skills", () => {
  let t: TempTree;
  beforeEach(() => (t = tempTree("skills-")));
  afterEach(() => t.remove());

  const options = (over: Partial<SkillLoadOptions> = {}): SkillLoadOptions => ({
    cwd: t.path(LAYOUT.cwd), agentDir: t.path(LAYOUT.agentDir), homeDir: t.path(LAYOUT.home), allowProject: true, ...over,
  });
  const rel = (p: string): string => relative(t.root, p);

  describe("discovery", () => {
    beforeEach(() => {
      writeUserSetup(t);
      writeProject(t);
    });

    it("project (.pi, then .agents up to the git root) before user (agent dir, then ~/.agents), then --skill", () => {
      const { skills } = loadSkills(options({ extraPaths: [t.path("extra/xskill")] }));
      assert.deepEqual(skills.map((s) => `${s.name} ${s.sourceInfo.source}/${s.sourceInfo.scope} ${rel(s.sourceInfo.baseDir!)}`), [
        "dup auto/project outer/repo/pkg/app/.pi",
        "proj-skill auto/project outer/repo/pkg/app/.pi",
        "grp auto/project outer/repo/pkg/app/.agents",
        "repo-skill auto/project outer/repo/.agents",
        "Bad_Name auto/user agent",
        "inner auto/user agent",
        "hidden auto/user agent",
        "skills auto/user agent",
        "pdf-tools auto/user agent",
        "home-skill auto/user home/.agents",
        "xskill local/temporary extra/xskill",
      ]);
      const pdf = skills.find((s) => s.name === "pdf-tools")!;
      assert.equal(pdf.description, 'Extract text from PDFs. Use when reading <PDF> & "docs".\n');
      assert.equal(pdf.baseDir, t.path("agent/skills/pdf-tools"));
      assert.deepEqual(pdf.sourceInfo, { path: pdf.filePath, source: "auto", scope: "user", origin: "top-level", baseDir: t.path("agent") });
      assert.equal(skills.find((s) => s.name === "hidden")!.disableModelInvocation, true);
      assert.equal(pdf.disableModelInvocation, false);
    });

    it("without project trust nothing under the project loads, and the user's skill wins the name", () => {
      const { skills, diagnostics } = loadSkills(options({ allowProject: false }));
      assert.ok(skills.every((s) => s.sourceInfo.scope === "user"));
      assert.equal(skills.find((s) => s.name === "dup")!.description, "user dup");
      assert.ok(!diagnostics.some((d) => d.type === "collision"));
    });

    it("reports bad skills as warnings and collisions last, never throwing", () => {
      t.write("extra/xt.txt", "not markdown");
      const { diagnostics } = loadSkills(options({ extraPaths: ["../../../../extra/missing", t.path("extra/xt.txt")] }));
      assert.deepEqual(diagnostics.map((d) => `${d.type} ${rel(d.path)}`), [
        "warning extra/missing",
        "warning extra/xt.txt",
        "warning agent/skills/Bad_Name/SKILL.md",
        "warning agent/skills/badyaml/SKILL.md",
        "warning agent/skills/nodesc/SKILL.md",
        "collision agent/skills/dup/SKILL.md",
      ]);
      assert.deepEqual(diagnostics.slice(0, 3).map((d) => d.message), [
        "skill path does not exist",
        "skill path is not a markdown file",
        'name "Bad_Name" may only contain lowercase letters a-z, digits 0-9 and hyphens',
      ]);
      assert.match(diagnostics[3]!.message, /Nested mappings.*line 2/);
      assert.match(diagnostics[4]!.message, /description/);
      assert.deepEqual(diagnostics[5]!.collision, {
        resourceType: "skill", name: "dup", winnerPath: t.path(`${LAYOUT.cwd}/.pi/skills/dup/SKILL.md`), loserPath: t.path("agent/skills/dup/SKILL.md"),
      });
    });

    it("--no-skills keeps only --skill paths; a skill reached twice through a symlink loads once", () => {
      symlinkSync(t.path("extra/xskill"), t.path("agent/skills/linked"));
      const none = loadSkills(options({ includeDefaults: false }));
      assert.deepEqual(none, { skills: [], diagnostics: [] });
      const only = loadSkills(options({ includeDefaults: false, extraPaths: [t.path("extra/xskill/SKILL.md")] }));
      assert.deepEqual(only.skills.map((s) => s.name), ["xskill"]);
      const both = loadSkills(options({ extraPaths: [t.path("extra/xskill")] }));
      assert.deepEqual(both.skills.filter((s) => s.description === "extra skill").map((s) => rel(s.filePath)), ["agent/skills/linked/SKILL.md"]);
    });

    it(".agents/skills stops at the git root; without a repository it goes up to /", () => {
      rmSync(t.path(`${LAYOUT.repo}/.git`), { recursive: true });
      const names = loadSkills(options()).skills.map((s) => s.name);
      assert.ok(names.includes("outside") && names.includes("repo-skill"));
    });
  });

  it("collectSkillFiles: a SKILL.md ends the descent; loose .md only at a pi root or below an .agents root", () => {
    t.write("s/top.md", "x");
    t.write("s/a/SKILL.md", "x");
    t.write("s/a/b/SKILL.md", "x");
    t.write("s/c/loose.md", "x");
    t.write("s/c/d/SKILL.md", "x");
    t.write("s/.hidden/SKILL.md", "x");
    assert.deepEqual(collectSkillFiles(t.path("s"), "pi").map(rel), ["s/a/SKILL.md", "s/c/d/SKILL.md", "s/top.md"]);
    assert.deepEqual(collectSkillFiles(t.path("s"), "agents").map(rel), ["s/a/SKILL.md", "s/c/d/SKILL.md", "s/c/loose.md"]);
  });

  it("names: frontmatter name, else the folder; Agent Skills rules give warnings", () => {
    assert.deepEqual(skillNameProblems("pdf-tools-2"), []);
    assert.equal(skillNameProblems("Bad_Name").length, 1);
    assert.equal(skillNameProblems("-x--y").length, 2);
    assert.equal(skillNameProblems("a".repeat(65)).length, 1);
    t.write("agent/skills/folder-name/SKILL.md", skillMd({ description: "d" }));
    t.write("agent/skills/other/SKILL.md", skillMd({ name: "declared", description: "x".repeat(1025) }));
    const { skills, diagnostics } = loadSkills(options({ allowProject: false }));
    assert.deepEqual(skills.map((s) => s.name), ["folder-name", "declared"]);
    assert.deepEqual(diagnostics.map((d) => d.message), ["description is longer than 1024 characters (1025)"]);
  });

  describe("/skill:name expansion", () => {
    beforeEach(() => writeUserSetup(t));

    it("wraps the body in a <skill> block, with the arguments after a blank line", () => {
      const { skills } = loadSkills(options({ allowProject: false }));
      const file = t.path("agent/skills/pdf-tools/SKILL.md");
      const block = `<skill name="pdf-tools" location="${file}">\nReferences are relative to ${t.path("agent/skills/pdf-tools")}.\n\n# PDF tools\n\nRun \`scripts/extract.sh\` first.\n</skill>`;
      assert.deepEqual(expandSkillCommand("/skill:pdf-tools", skills), { text: block });
      assert.deepEqual(expandSkillCommand('/skill:pdf-tools   extract "a.pdf"\n  ', skills), { text: `${block}\n\nextract "a.pdf"` });
    });

    it("leaves other text, unknown skills and names ended by a newline alone", () => {
      const { skills } = loadSkills(options({ allowProject: false }));
      for (const text of ["hello", "/pdf-tools x", "/skill:nope x", "/skill:pdf-tools\nx", " /skill:pdf-tools"]) {
        assert.deepEqual(expandSkillCommand(text, skills), { text });
      }
    });

    it("reads the file at expansion time and reports a file that went away", () => {
      const { skills } = loadSkills(options({ allowProject: false }));
      t.write("agent/skills/dup/SKILL.md", skillMd({ name: "dup", description: "user dup" }, "Changed."));
      assert.match(expandSkillCommand("/skill:dup", skills).text, /\n\nChanged\.\n<\/skill>$/);
      rmSync(t.path("agent/skills/dup/SKILL.md"));
      const result = expandSkillCommand("/skill:dup go", skills);
      assert.equal(result.text, "/skill:dup go");
      assert.equal(result.error?.path, t.path("agent/skills/dup/SKILL.md"));
    });
  });
});

import { strict as assert } from "node:assert";
import { mkdirSync } from "node:fs";
import type { Skill } from "./skills";
import {
  buildSystemPrompt, buildSystemPromptSections, formatSkillsForPrompt, resolvePromptSources, type PromptTool, type SystemPromptInput,
} from "./system-prompt";
import { tempTree, type TempTree } from "../../../test/fixtures/host/context-tree";

const skill = (name: string, description: string, hidden = false): Skill => ({
  name, description, filePath: `/skills/${name}/SKILL.md`, baseDir: `/skills/${name}`,
  sourceInfo: { path: `/skills/${name}/SKILL.md`, source: "auto", scope: "user", origin: "top-level", baseDir: "/agent" },
  disableModelInvocation: hidden,
});

const TOOLS: PromptTool[] = [
  { name: "read", description: "Read the contents of a file.\nSupports text and images." },
  { name: "bash", description: "Run a shell command." },
  { name: "edit", description: "Edit a file." },
  { name: "write", description: "Write a file.", snippet: "Create or replace files" },
];

const input = (over: Partial<SystemPromptInput> = {}): SystemPromptInput => ({
  cwd: "/work/proj", tools: TOOLS, contextFiles: [], skills: [], date: new Date(2026, 0, 2, 23, 59), ...over,
});

describe("system prompt", () => {
  it("default sections in order; tools by their first line; the date by day", () => {
    const sections = buildSystemPromptSections(input());
    assert.deepEqual(Object.keys(sections), ["preamble", "tools", "rules", "cwd", "date"]);
    assert.match(sections.preamble!, /^You are an expert coding assistant/);
    assert.equal(sections.tools, [
      "<tools>",
      "- read: Read the contents of a file.",
      "- bash: Run a shell command.",
      "- edit: Edit a file.",
      "- write: Create or replace files",
      "",
      "The project may give you further tools besides these.",
      "</tools>",
    ].join("\n"));
    assert.equal(sections.cwd, "<cwd>\n/work/proj\n</cwd>");
    assert.equal(sections.date, "<date>\nCurrent date: 2026-01-02\n</date>");
    assert.equal(buildSystemPrompt(input()), Object.values(sections).join("\n\n"));
    assert.equal(buildSystemPrompt(input()), buildSystemPrompt(input()), "deterministic");
  });

  it("rules: the shell rule only without grep/find/ls, each tool's guidelines once, then the general ones", () => {
    const rules = buildSystemPromptSections(input()).rules!.split("\n").slice(1, -1);
    assert.match(rules[0]!, /^- Use bash to list, search and find files/);
    assert.match(rules[1]!, /^- Look at files with read/);
    assert.deepEqual(rules.slice(-2), ["- Keep your answers short and to the point.", "- Name file paths clearly whenever you work with files."]);
    const custom = buildSystemPromptSections(input({
      tools: [{ name: "bash", description: "b" }, { name: "grep", description: "g", guidelines: ["Prefer grep.", "Prefer grep."] }, { name: "x", description: "", guidelines: [" Prefer grep. "] }],
    }));
    assert.equal(custom.rules, "<rules>\n- Prefer grep.\n- Keep your answers short and to the point.\n- Name file paths clearly whenever you work with files.\n</rules>");
    assert.match(buildSystemPromptSections(input({ tools: [] })).tools!, /^<tools>\n\(none\)\n/);
  });

  it("context files wrapped as pi does, an addendum, skills for read (or bash), backslashes in cwd", () => {
    const sections = buildSystemPromptSections(input({
      cwd: "C:\\work\\proj",
      contextFiles: [{ path: "/home/u/.pi/agent/AGENTS.md", content: "Global." }, { path: "/work/AGENTS.md", content: "Repo." }],
      appendPrompts: ["First.", "Second."],
      skills: [skill("pdf", 'Reads <PDF> & "more"'), skill("secret", "hidden", true)],
    }));
    assert.deepEqual(Object.keys(sections), ["preamble", "tools", "rules", "addendum", "project_context", "skills", "cwd", "date"]);
    assert.equal(sections.addendum, "<addendum>\nFirst.\n\nSecond.\n</addendum>");
    assert.equal(sections.project_context, [
      "<project_context>",
      "Project-specific instructions and guidelines:",
      "",
      '<project_instructions path="/home/u/.pi/agent/AGENTS.md">\nGlobal.\n</project_instructions>',
      "",
      '<project_instructions path="/work/AGENTS.md">\nRepo.\n</project_instructions>',
      "</project_context>",
    ].join("\n"));
    assert.match(sections.skills!, /load its file with the read tool/);
    assert.ok(sections.skills!.endsWith([
      "<available_skills>",
      "  <skill>",
      "    <name>pdf</name>",
      "    <description>Reads &lt;PDF&gt; &amp; &quot;more&quot;</description>",
      "    <location>/skills/pdf/SKILL.md</location>",
      "  </skill>",
      "</available_skills>",
      "</skills>",
    ].join("\n")));
    assert.equal(sections.cwd, "<cwd>\nC:/work/proj\n</cwd>");
  });

  it("skills need read or bash and at least one model-visible skill", () => {
    const skills = [skill("pdf", "d")];
    assert.match(buildSystemPromptSections(input({ tools: [{ name: "bash", description: "b" }], skills })).skills!, /with bash/);
    assert.equal(buildSystemPromptSections(input({ tools: [{ name: "edit", description: "e" }], skills })).skills, undefined);
    assert.equal(formatSkillsForPrompt([skill("x", "d", true)], "read"), "");
  });

  it("a custom prompt replaces preamble, tools and rules; the rest stays", () => {
    const sections = buildSystemPromptSections(input({ customPrompt: "You are Bob.", appendPrompts: ["Extra."], contextFiles: [{ path: "/A.md", content: "a" }] }));
    assert.deepEqual(Object.keys(sections), ["preamble", "addendum", "project_context", "cwd", "date"]);
    assert.equal(sections.preamble, "You are Bob.");
    assert.equal(buildSystemPromptSections(input({ customPrompt: "" })).tools !== undefined, true, "an empty custom prompt means the default");
    assert.equal(buildSystemPromptSections(input({ date: "Friday" })).date, "<date>\nCurrent date: Friday\n</date>");
  });

  describe("resolvePromptSources", () => {
    let t: TempTree;
    beforeEach(() => (t = tempTree("sysprompt-")));
    afterEach(() => t.remove());
    const base = (): { cwd: string; agentDir: string; allowProject: boolean } => ({ cwd: t.path("proj"), agentDir: t.path("agent"), allowProject: true });

    it("none: the default prompt and no additions", () => {
      mkdirSync(t.path("proj"), { recursive: true });
      assert.deepEqual(resolvePromptSources(base()), { appendPrompts: [], appendPaths: [], diagnostics: [] });
    });

    it("project SYSTEM.md / APPEND_SYSTEM.md only when trusted, else the agent dir's; never both", () => {
      t.write("agent/SYSTEM.md", "Global system.");
      t.write("agent/APPEND_SYSTEM.md", "Global append.");
      t.write("proj/.pi/SYSTEM.md", "\uFEFFProject system.");
      t.write("proj/.pi/APPEND_SYSTEM.md", "Project append.");
      assert.deepEqual(resolvePromptSources(base()), {
        customPrompt: "Project system.", customPromptPath: t.path("proj/.pi/SYSTEM.md"),
        appendPrompts: ["Project append."], appendPaths: [t.path("proj/.pi/APPEND_SYSTEM.md")], diagnostics: [],
      });
      assert.deepEqual(resolvePromptSources({ ...base(), allowProject: false }), {
        customPrompt: "Global system.", customPromptPath: t.path("agent/SYSTEM.md"),
        appendPrompts: ["Global append."], appendPaths: [t.path("agent/APPEND_SYSTEM.md")], diagnostics: [],
      });
    });

    it("CLI values win; a value naming a file (relative to cwd) is read, other values are text", () => {
      t.write("agent/SYSTEM.md", "Global system.");
      t.write("agent/APPEND_SYSTEM.md", "Global append.");
      t.write("proj/prompts/sys.md", "From file.");
      t.write("proj/prompts/add.md", "Added from file.");
      const r = resolvePromptSources({ ...base(), systemPrompt: "prompts/sys.md", appendSystemPrompt: ["Be brief.", t.path("proj/prompts/add.md")] });
      assert.deepEqual(r, {
        customPrompt: "From file.", customPromptPath: t.path("proj/prompts/sys.md"),
        appendPrompts: ["Be brief.", "Added from file."], appendPaths: [t.path("proj/prompts/add.md")], diagnostics: [],
      });
      assert.deepEqual(resolvePromptSources({ ...base(), systemPrompt: "You are terse." }).customPrompt, "You are terse.");
      assert.equal(resolvePromptSources({ ...base(), systemPrompt: "" }).customPrompt, undefined, "empty: the default, not SYSTEM.md");
    });

    it("a path that cannot be read is reported and used as text", () => {
      mkdirSync(t.path("proj/adir"), { recursive: true });
      const r = resolvePromptSources({ ...base(), systemPrompt: "adir" });
      assert.equal(r.customPrompt, "adir");
      assert.equal(r.diagnostics[0]?.path, t.path("proj/adir"));
    });
  });
});

import { strict as assert } from "node:assert";
import { buildResourceCommands, expandSlashCommand } from "./commands";
import { loadContextResources } from "./index";
import { LAYOUT, skillMd, tempTree, writeUserSetup, type TempTree } from "../../../test/fixtures/host/context-tree";

describe("commands", () => {
  let t: TempTree;
  beforeEach(() => {
    t = tempTree("commands-");
    writeUserSetup(t);
  });
  afterEach(() => t.remove());

  const load = (): ReturnType<typeof loadContextResources> =>
    loadContextResources({ cwd: t.path("work"), agentDir: t.path(LAYOUT.agentDir), homeDir: t.path(LAYOUT.home), allowProject: false });

  it("get_commands entries: templates, then skills as skill:<name>, each with its sourceInfo", () => {
    const { templates, skills } = load();
    const commands = buildResourceCommands(templates, skills);
    assert.deepEqual(commands.map((c) => `${c.source} ${c.name}`), [
      "prompt dupt", "prompt nodesc", "prompt review",
      "skill skill:Bad_Name", "skill skill:dup", "skill skill:inner", "skill skill:hidden", "skill skill:skills", "skill skill:pdf-tools", "skill skill:home-skill",
    ]);
    assert.deepEqual(commands.find((c) => c.name === "review"), {
      name: "review", description: "Review the changes", source: "prompt",
      sourceInfo: { path: t.path("agent/prompts/review.md"), source: "auto", scope: "user", origin: "top-level", baseDir: t.path("agent") },
    });
    assert.deepEqual(commands.find((c) => c.name === "skill:home-skill")?.sourceInfo.baseDir, t.path("home/.agents"));
  });

  it("expands a skill first, then a template; other text is untouched", () => {
    const resources = load();
    assert.equal(expandSlashCommand('/review a "b c" d', resources).text, "Review a, then b c d. All: a b c d. Third: d. Args: a b c d.");
    assert.match(expandSlashCommand("/skill:dup now", resources).text, /^<skill name="dup" location="[^"]+">\nReferences are relative to .*\n\nUser dup\.\n<\/skill>\n\nnow$/);
    assert.deepEqual(expandSlashCommand("plain text", resources), { text: "plain text" });
  });

  it("a skill whose file went away is reported and its command passed on as typed", () => {
    t.write("agent/skills/gone/SKILL.md", skillMd({ description: "soon gone" }));
    const resources = load();
    t.remove();
    const result = expandSlashCommand("/skill:gone x", resources);
    assert.equal(result.text, "/skill:gone x");
    assert.equal(result.error?.path, t.path("agent/skills/gone/SKILL.md"));
  });

  it("loadContextResources gathers every diagnostic without throwing", () => {
    const { diagnostics, contextFiles } = load();
    assert.equal(contextFiles[0]?.path, t.path("agent/AGENTS.md"));
    assert.deepEqual(diagnostics.map((d) => d.type), ["warning", "warning", "warning"]);
  });
});

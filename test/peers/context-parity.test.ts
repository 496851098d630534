/**
 * Our loaders against the real pi 0.87.1 (test/peers, `npm run peers:install`) on the same
 * setup: the `get_commands` entries for skills and templates, and what reaches the model (mock
 * LLM) for `/skill:x args`, `/template args`, the wrapped context files, the skill list and a
 * custom/appended system prompt.
 */
import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { messageText, startMockLlm, type MockLlm, type RecordedRequest } from "../support/mock-llm";
import { startPeer, type Frame } from "../support/peer-process";
import { assertPeerInstalled } from "../support/peers";
import { buildResourceCommands, expandSlashCommand } from "../../agent-host/session/context/commands";
import { loadContextResources, type ContextResourceOptions } from "../../agent-host/session/context/index";
import { availableSkillsXml, buildSystemPromptSections } from "../../agent-host/session/context/system-prompt";
import { LAYOUT, tempTree, writeProject, writeUserSetup, type TempTree } from "../fixtures/host/context-tree";

interface PiRun {
  commands: { name: string; source: string }[];
  requests: RecordedRequest[];
}

async function runPi(t: TempTree, llm: MockLlm, args: string[], prompts: string[]): Promise<PiRun> {
  const agentDir = t.path(LAYOUT.agentDir);
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({
    providers: { mock: { baseUrl: llm.baseUrl, api: "openai-completions", apiKey: "k", models: [{ id: "mock", name: "Mock", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 4096, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }] } },
  }));
  const before = llm.requests.length;
  const peer = startPeer("pi", {
    mockBaseUrl: llm.baseUrl, cwd: t.path(LAYOUT.cwd), extraArgs: args,
    env: { PI_CODING_AGENT_DIR: agentDir, HOME: t.path(LAYOUT.home) },
  });
  try {
    peer.send({ id: "cmds", type: "get_commands" });
    const reply = await peer.waitFor((f) => f.id === "cmds");
    const commands = ((reply.data as { commands: { name: string; source: string }[] }).commands).filter((c) => c.source !== "extension");
    for (const [i, message] of prompts.entries()) {
      const from = peer.frames.length;
      peer.send({ id: `p${i}`, type: "prompt", message });
      await peer.waitFor((f: Frame) => f.type === "agent_settled", 20_000, from);
    }
    return { commands, requests: llm.requests.slice(before) };
  } finally {
    await peer.stop();
  }
}

const lastUserText = (r: RecordedRequest): string => messageText(r.body.messages.filter((m) => m.role === "user").at(-1)!);
const systemText = (r: RecordedRequest): string => messageText(r.body.messages.find((m) => m.role === "system")!);
const between = (text: string, open: string, close: string): string => {
  const start = text.indexOf(open);
  assert.notEqual(start, -1, `${open} missing in:\n${text}`);
  return text.slice(start, text.indexOf(close, start) + close.length);
};

describe("context resources: parity with pi 0.87.1", function () {
  this.timeout(60_000);
  let t: TempTree;
  let llm: MockLlm;
  let base: ContextResourceOptions;

  before(async () => {
    assertPeerInstalled("pi");
    t = tempTree("ctx-parity-");
    writeUserSetup(t);
    writeProject(t);
    llm = await startMockLlm();
    base = { cwd: t.path(LAYOUT.cwd), agentDir: t.path(LAYOUT.agentDir), homeDir: t.path(LAYOUT.home), allowProject: false };
  });
  after(async () => {
    await llm?.close();
    t?.remove();
  });

  it("trusted project with --skill/--prompt-template: same commands, same expansions, same context and skill blocks", async () => {
    const extra = ["--skill", t.path("extra/xskill"), "--skill", t.path("extra/missing"), "--prompt-template", t.path("extra/xt.md")];
    const prompts = ['/skill:pdf-tools extract "report.pdf" now', '/review one "two three" four', "/skill:hidden", "/proj x", "/xt a b"];
    const pi = await runPi(t, llm, ["--approve", ...extra], prompts);
    const ours = loadContextResources({ ...base, allowProject: true, skillPaths: [t.path("extra/xskill"), t.path("extra/missing")], promptTemplatePaths: [t.path("extra/xt.md")] });

    assert.deepEqual(buildResourceCommands(ours.templates, ours.skills), pi.commands);
    assert.equal(pi.requests.length, prompts.length);
    prompts.forEach((prompt, i) => assert.equal(expandSlashCommand(prompt, ours).text, lastUserText(pi.requests[i]!), prompt));

    const sections = buildSystemPromptSections({ cwd: base.cwd, tools: [{ name: "read", description: "Read files" }], contextFiles: ours.contextFiles, skills: ours.skills, date: "2026-01-01" });
    const piSystem = systemText(pi.requests[0]!);
    assert.equal(sections.project_context, between(piSystem, "<project_context>", "</project_context>"));
    assert.equal(availableSkillsXml(ours.skills.filter((s) => !s.disableModelInvocation)), between(piSystem, "<available_skills>", "</available_skills>"));
    assert.equal(sections.cwd, between(piSystem, "<cwd>", "</cwd>"));
  });

  it("untrusted project, --no-prompt-templates, --no-context-files, custom and appended prompt files", async () => {
    t.write("prompts/custom.md", "You are a custom agent.\n");
    const args = ["--no-prompt-templates", "--no-context-files", "--skill", t.path("extra/xskill"), "--system-prompt", t.path("prompts/custom.md"), "--append-system-prompt", "Also be nice."];
    const pi = await runPi(t, llm, args, ["/skill:dup go", "/review x"]);
    const ours = loadContextResources({
      ...base, noPromptTemplates: true, noContextFiles: true, skillPaths: [t.path("extra/xskill")],
      systemPrompt: t.path("prompts/custom.md"), appendSystemPrompt: ["Also be nice."],
    });

    assert.deepEqual(buildResourceCommands(ours.templates, ours.skills), pi.commands);
    assert.ok(pi.commands.some((c) => c.name === "skill:dup"));
    assert.equal(expandSlashCommand("/skill:dup go", ours).text, lastUserText(pi.requests[0]!));
    assert.equal(expandSlashCommand("/review x", ours).text, "/review x");
    assert.equal(lastUserText(pi.requests[1]!), "/review x");

    const piSystem = systemText(pi.requests[0]!);
    assert.equal(ours.contextFiles.length, 0);
    assert.ok(!piSystem.includes("<project_context>"));
    const sections = buildSystemPromptSections({
      cwd: base.cwd, tools: [{ name: "read", description: "Read files" }], contextFiles: [], skills: ours.skills, date: "2026-01-01",
      ...(ours.prompt.customPrompt !== undefined ? { customPrompt: ours.prompt.customPrompt } : {}), appendPrompts: ours.prompt.appendPrompts,
    });
    assert.ok(piSystem.startsWith(`${sections.preamble}\n\n<addendum>`), piSystem.slice(0, 200));
    assert.equal(sections.addendum, between(piSystem, "<addendum>", "</addendum>"));
    assert.equal(availableSkillsXml(ours.skills.filter((s) => !s.disableModelInvocation)), between(piSystem, "<available_skills>", "</available_skills>"));
  });
});

// The chat a person first sees and reads (bundled host, 300 px side bar, then a wide editor tab):
// a welcome with starters and hints in an empty chat; the model's whole name in the header (a long
// dated one wraps, never cut);
// "Jump to latest" beside the text, not over it; a link still being streamed never shown as raw
// markdown; tables with borders; lines no wider than a readable measure in a wide tab.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, openChat, promptValue, settled, typePrompt, useChatSuiteWith } from "./chat-support";
import { useBundledHost } from "./host-fixture";
import { ui } from "./ui";

const overlap = (a: { top: number; bottom: number }, b: { top: number; bottom: number }) => Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

describe("Pi chat welcome and reading: what an empty chat offers and how a reply reads", function () {
  this.timeout(120_000);
  const fixture = useChatSuiteWith(useBundledHost);

  it("greets an empty chat with starters and hints; a starter fills the message box", async () => {
    const welcome = await chatText("the welcome", ".welcome", (t) => t.length > 0, 5_000);
    assert.match(welcome, /@/, "a hint about @ context");
    assert.match(welcome, /\//, "a hint about / commands");
    const starters = await ui.webviewProperties(chatView, ".welcome", ["childElementCount"]);
    assert.ok(Number(starters.childElementCount) >= 2, "starters and hints");
    await ui.screenshot("chat-welcome-300px");
    const first = await ui.webviewText(chatView, ".welcome .starter");
    await ui.clickInWebview(chatView, ".welcome .starter");
    await eventually("the starter in the box", async () => ((await promptValue()).length > 10 && first.length > 0) || undefined);
  });

  it("reads in a dark, a light and a high-contrast theme: the welcome, its starters and the mode pill drawn in the theme's colours", async () => {
    const config = vscode.workspace.getConfiguration("workbench");
    const before = config.get<string>("colorTheme");
    const transparent = /rgba\(0, 0, 0, 0\)|transparent/;
    try {
      for (const [theme, bodyClass] of [["Default Dark Modern", "vscode-dark"], ["Default Light Modern", "vscode-light"], ["Default High Contrast", "vscode-high-contrast"]] as const) {
        await config.update("colorTheme", theme, vscode.ConfigurationTarget.Global);
        await chatText(`the ${theme} body class`, `body.${bodyClass} .welcome`, () => true);
        const starter = await ui.webviewLayout(chatView, ".welcome .starter", ["color", "background-color", "border-top-color"]);
        const pill = await ui.webviewLayout(chatView, "#mode-picker", ["color", "border-top-color"]);
        const body = await ui.webviewLayout(chatView, "body", ["background-color"]);
        await ui.screenshot(`chat-welcome-${bodyClass}`);
        const said = `${theme}: starter ${JSON.stringify(starter.styles)}, pill ${JSON.stringify(pill.styles)}, body ${JSON.stringify(body.styles)}`;
        assert.notEqual(starter.styles.color, starter.styles["background-color"], said);
        assert.notEqual(pill.styles.color, body.styles["background-color"], said);
        assert.doesNotMatch(pill.styles["border-top-color"], transparent, said);
        assert.doesNotMatch(starter.styles["border-top-color"], transparent, said);
      }
    } finally {
      await config.update("colorTheme", before, vscode.ConfigurationTarget.Global);
    }
  });

  it("shows the model's name whole at 300 px, a long dated one too (wrapped, never cut)", async () => {
    const agent = fixture();
    agent.llm.enqueue({ text: "hi" });
    await typePrompt("hello");
    await settled(agent);
    // Measured once laid out: the header is redrawn when the agent's state arrives after the run.
    const whole = async (expected: string) => {
      const name = await eventually(`the model's name ${expected} laid out`, async () => {
        const shown = await ui.webviewProperties(chatView, "#model-picker .model-name", ["scrollWidth", "clientWidth", "scrollHeight", "clientHeight", "textContent"]);
        return Number(shown.clientWidth) > 0 && shown.textContent === expected ? shown : undefined;
      });
      assert.ok(Number(name.scrollWidth) <= Number(name.clientWidth) && Number(name.scrollHeight) <= Number(name.clientHeight), `the name is not cut: ${JSON.stringify(name)}`);
      const [model, actions, status] = await Promise.all(["#model", ".header-actions", "#status"].map(async (s) => (await ui.webviewLayout(chatView, s)).box));
      assert.ok(model.right <= actions.left + 0.5 && model.left >= status.right - 0.5, `the name between the status and the header's buttons: ${JSON.stringify({ model, actions, status })}`);
      return name;
    };
    await whole("Mock mock-a");
    await chatText("no welcome once there is a conversation", "#app", (t) => !t.includes("Try one of these"));

    // The trial's model (#32, 001: "Mock claude-sonnet-4-5-…"): its date is what tells it from the others.
    const models = path.join(agent.agentDir, "models.json");
    const config = JSON.parse(fs.readFileSync(models, "utf8")) as { providers: Record<string, { models: { id: string; name: string }[] }> };
    const long = { ...config.providers.mock!.models[1]!, id: "claude-sonnet-4-5-20250929", name: "Mock claude-sonnet-4-5-20250929" };
    config.providers.mock!.models.push(long);
    fs.writeFileSync(models, JSON.stringify(config));
    const pick = async (id: string) => {
      await ui.clickInWebview(chatView, "#model-picker");
      await chatText("the list of models", ".picker[data-picker='model-picker']", (t) => t.includes(`mock/${id}`));
      await ui.clickInWebview(chatView, `.picker-option:has-text('mock/${id}')`);
    };
    await agent.api.supervisor.restart();
    await openChat();
    try {
      await pick(long.id);
      const name = await whole(long.name);
      await ui.screenshot("chat-header-long-model-300px");
      const line = await ui.webviewProperties(chatView, "#status", ["offsetHeight"]);
      assert.ok(Number(name.clientHeight) <= 2.5 * Number(line.offsetHeight), `two lines at most: ${String(name.clientHeight)} px, a line ${String(line.offsetHeight)} px`);
    } finally {
      await pick("mock-a");
      await eventually("the model back", async () => (await ui.webviewText(chatView, "#model-picker .model-name")) === "Mock mock-a" || undefined);
    }
  });

  it("never shows a half-streamed link as raw markdown, and draws tables with borders", async () => {
    const agent = fixture();
    agent.llm.enqueue({ text: ["Read ", "[the guide](https://exampl", "e.com/guide) first.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"], delayMs: 1500 });
    await typePrompt("Where do I start?");
    // Read while the reply stops after "](https://exampl" for 1.5 s.
    const streaming = await chatText("the link's text streaming", ".item-assistant", (t) => t.includes("the guide"));
    assert.equal((await agent.state()).isStreaming, true, "still streaming when read");
    assert.doesNotMatch(streaming, /\]\(|https:\/\/exampl/, `no raw link markdown while it streams: ${streaming}`);
    await settled(agent);
    const link = await ui.webviewProperties(chatView, ".item-assistant a[data-href]", ["textContent", "title"]);
    assert.equal(link.textContent, "the guide");
    assert.equal(link.title, "https://example.com/guide");
    const cell = await ui.webviewLayout(chatView, ".item-assistant td", ["border-top-style", "border-top-width", "border-top-color"]);
    assert.equal(cell.styles["border-top-style"], "solid");
    assert.ok(parseFloat(cell.styles["border-top-width"]) >= 1, JSON.stringify(cell.styles));
    assert.doesNotMatch(cell.styles["border-top-color"], /rgba\(0, 0, 0, 0\)|transparent/, JSON.stringify(cell.styles));
  });

  it("puts Jump to latest beside the transcript, not over its text", async () => {
    const agent = fixture();
    agent.llm.enqueue({ text: Array.from({ length: 80 }, (_, i) => `Line ${i} of a long answer.\n\n`), delayMs: 40 });
    await typePrompt("Write a lot");
    await chatText("a long reply", ".item-assistant", (t) => t.includes("Line 30"));
    const reading = await ui.webviewLayout(chatView, "#transcript");
    await ui.wheelInWebview(chatView, "#transcript", -600);
    await eventually("Jump to latest", async () => (await ui.webviewProperties(chatView, "#jump-latest", ["hidden"])).hidden === false || undefined);
    const jump = await ui.webviewLayout(chatView, "#jump-latest");
    const transcript = await ui.webviewLayout(chatView, "#transcript");
    await ui.screenshot("chat-jump-latest-300px");
    assert.equal(overlap(jump.box, transcript.box), 0, `the button is not over the transcript: ${JSON.stringify(jump.box)} / ${JSON.stringify(transcript.box)}`);
    // Nor does it take lines from it when it comes (#32, 013: a card's text went under its row).
    assert.ok(Math.abs(transcript.box.bottom - reading.box.bottom) <= 1, `the conversation keeps its lines when the button shows: its bottom ${reading.box.bottom} before, ${transcript.box.bottom} after`);
    for (const below of ["#changes", "#plan", ".composer-wrap"]) {
      const { box } = await ui.webviewLayout(chatView, below);
      if (box.height > 0) assert.equal(overlap(jump.box, box), 0, `the button is not over ${below}: ${JSON.stringify(jump.box)} / ${JSON.stringify(box)}`);
    }
    await settled(agent);
  });

  it("keeps lines to a readable measure in a wide editor tab", async () => {
    const agent = fixture();
    const id = await vscode.commands.executeCommand<string>("pi.newSessionInTab");
    const tab = agent.api.sessions.get(id)!;
    try {
      await eventually("the tab's agent", () => tab.supervisor.status === "idle", 30_000);
      await vscode.commands.executeCommand("workbench.action.closeSidebar");
      agent.llm.enqueue({ text: "A paragraph long enough to run across the whole width of a wide editor if nothing held it back. ".repeat(6) });
      await tab.chat.prompt("Say a lot on one line");
      await eventually("the reply", () => tab.supervisor.status === "idle" || undefined, 30_000);
      const reply = await eventually("the reply in the tab", async () => {
        const box = await ui.webviewLayout(tab.label, ".item-assistant").catch(() => undefined);
        return box && box.viewport.width > 1000 ? box : undefined;
      });
      await ui.screenshot("chat-wide-tab");
      assert.ok(reply.box.width <= 900, `a readable measure in a ${reply.viewport.width} px tab: ${reply.box.width} px`);
      const composer = await ui.webviewLayout(tab.label, ".composer-wrap");
      assert.ok(composer.box.width <= 900, `the message box too: ${composer.box.width} px`);
    } finally {
      await vscode.commands.executeCommand("workbench.action.toggleSidebarVisibility");
      await agent.api.sessions.close(tab);
    }
  });
});

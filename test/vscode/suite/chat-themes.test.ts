// Issue 32's done-when: the chat with a plan, changes and an open question, in the side bar and
// in a wide editor tab, in a dark, a light and both high-contrast themes. In each of the eight: nothing
// runs out of the webview sideways, the header's status, model and mode pill are whole, the
// conversation keeps its room, the plan and the changes line show above the box, the question's
// answers fit its card, lines keep a readable measure, and the text is readable on its
// background (WCAG contrast of the computed colours), a code block's plain text and tokens included,
// in both high-contrast themes too. A screenshot of each.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatView } from "./chat-support";
import { useHostSuite } from "./host-fixture";
import { workspaceRoot } from "./host-tools-support";
import type { WebviewRef } from "../bridge-protocol";
import { ui } from "./ui";

const themes = [
  { name: "Default High Contrast", bodyClass: "vscode-high-contrast", tag: "high-contrast" },
  { name: "Default High Contrast Light", bodyClass: "vscode-high-contrast-light", tag: "high-contrast-light" },
  { name: "Default Dark Modern", bodyClass: "vscode-dark", tag: "dark" },
  { name: "Default Light Modern", bodyClass: "vscode-light", tag: "light" },
];

type Layout = Awaited<ReturnType<typeof ui.webviewLayout>>;

/** "rgb(1, 2, 3)" / "rgba(1, 2, 3, 0.5)" as [r, g, b, a]. */
function rgba(css: string): [number, number, number, number] {
  const parts = /rgba?\(([^)]+)\)/.exec(css)?.[1]?.split(",").map((p) => Number(p.trim()));
  if (!parts || parts.length < 3) throw new Error(`not a colour: ${css}`);
  return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
}

/** WCAG 2 contrast ratio of two opaque colours. */
function contrast(a: [number, number, number, number], b: [number, number, number, number]): number {
  const luminance = ([r, g, bl]: number[]) => {
    const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(bl!);
  };
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}

/** A colour over the page's background (a translucent text colour blends with it). */
function over(front: [number, number, number, number], back: [number, number, number, number]): [number, number, number, number] {
  const a = front[3];
  return [front[0] * a + back[0] * (1 - a), front[1] * a + back[1] * (1 - a), front[2] * a + back[2] * (1 - a), 1];
}

describe("chat themes: plan, changes and a question in the side bar and a wide tab, dark, light and both high contrasts", function () {
  this.timeout(240_000);
  const suiteHost = useHostSuite();
  const workbench = vscode.workspace.getConfiguration("workbench");
  let themeBefore: string | undefined;

  before(() => {
    themeBefore = workbench.get<string>("colorTheme");
  });
  after(async () => {
    await workbench.update("colorTheme", themeBefore, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.commands.executeCommand("pi.review.keepAll");
  });

  /** The plan, a kept edit (the changes line), then a bash question left open. */
  async function conversation(view: WebviewRef, send: (text: string) => Promise<unknown>, idle: () => boolean, file: string): Promise<void> {
    const host = suiteHost();
    fs.writeFileSync(path.join(workspaceRoot(), file), "first line\nsecond line\n");
    const todo = { phases: [{ name: "Tidy the greeting", tasks: [{ content: "Read the file", status: "completed" }, { content: "Change the second line", status: "in_progress" }, { content: "Run the checks", status: "pending" }] }] };
    host.llm.enqueue({ toolCalls: [{ name: "todo", arguments: todo }] }, { text: "Planned: three tasks.\n\n```ts\nconst total = lines.map(parseLine) // the sum\n```\n" });
    await send("Plan the change");
    // Idle alone is also the moment between the prompt's acceptance and agent_start: the next
    // prompt sent then steers this run (ci-27: the edit never came). Its reply shown, then idle.
    await eventually("the plan's run", async () => ((await ui.webviewText(view, ".transcript")).includes("Planned: three tasks.") && idle()) || undefined, 30_000);
    host.llm.enqueue({ toolCalls: [{ name: "edit", arguments: { path: file, edits: [{ oldText: "second line", newText: "second line, tidied" }] } }] }, { text: "Edited the **second** line; see `" + file + "`." });
    void send("Make the edit");
    await eventually("the edit's question", async () => (await ui.quickPickItems()).includes("Allow once") || undefined);
    await ui.pickQuickPickItem("Allow once");
    await eventually("the edit's run", () => idle() || undefined, 30_000);
    await eventually("the changes line", async () => (await ui.webviewProperties(view, "#changes", ["hidden"])).hidden === false || undefined);
    host.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "git status --short" } }] }, { text: "done" });
    void send("Check the tree");
    await eventually("the bash question", async () => (await ui.quickPickItems()).includes("Deny") || undefined);
    await eventually("its card in the chat", async () => (await ui.webviewProperties(view, '.item-dialog[data-state="open"]', ["offsetHeight"]).catch(() => ({ offsetHeight: 0 }))).offsetHeight !== 0 || undefined);
  }

  /** Every check of one surface in one theme. */
  async function check(view: WebviewRef, where: string, wide: boolean): Promise<void> {
    const layout = (selector: string, styles: string[] = []): Promise<Layout> => ui.webviewLayout(view, selector, styles);
    const body = await layout("body", ["background-color"]);
    const width = body.viewport.width;
    const context = `${where}, ${width} px`;
    const app = await ui.webviewProperties(view, "#app", ["scrollWidth", "clientWidth"]);
    assert.ok(Number(app.scrollWidth) <= Number(app.clientWidth) + 1, `${context}: nothing runs out sideways (${String(app.scrollWidth)} > ${String(app.clientWidth)})`);
    for (const selector of ["#status", "#model", "#mode-picker"]) {
      const { box } = await layout(selector);
      assert.ok(box.width > 0 && box.left >= 0 && box.right <= width + 0.5 && box.top >= 0, `${context}: ${selector} whole in view: ${JSON.stringify(box)}`);
    }
    const transcript = await layout("#transcript");
    assert.ok(transcript.box.height >= 0.3 * body.viewport.height, `${context}: the conversation keeps its room: ${Math.round(transcript.box.height)} of ${body.viewport.height} px`);
    for (const selector of ["#plan", "#changes", ".composer-wrap"]) {
      const { box } = await layout(selector);
      assert.ok(box.height > 0 && box.bottom <= body.viewport.height + 0.5, `${context}: ${selector} shown: ${JSON.stringify(box)}`);
    }
    const card = await layout('.item-dialog[data-state="open"]');
    // The open question is the conversation's last entry: the chat follows it whole into view.
    assert.ok(card.box.bottom <= transcript.box.bottom + 1 && card.box.top >= transcript.box.top - 1, `${context}: the open question whole in view: ${JSON.stringify(card.box)} in ${JSON.stringify(transcript.box)}`);
    for (const option of ["Allow once", "Allow this exact command for this session", "Deny"]) {
      const { box } = await layout(`.item-dialog[data-state="open"] [data-option="${option}"]`);
      assert.ok(box.width > 0 && box.left >= card.box.left - 0.5 && box.right <= card.box.right + 0.5, `${context}: "${option}" inside its card: ${JSON.stringify(box)} in ${JSON.stringify(card.box)}`);
    }
    if (wide) {
      const reply = await layout(".item-assistant");
      assert.ok(width > 1000 && reply.box.width <= 900, `${context}: a readable measure: ${reply.box.width} px`);
    }
    // Text on its background: the page's, the question card's (its own background).
    const page = rgba(body.styles["background-color"]!);
    const cardBack = over(rgba((await layout('.item-dialog[data-state="open"]', ["background-color"])).styles["background-color"]!), page);
    const texts: [string, [number, number, number, number], number][] = [
      [".item-assistant .text", page, 4.5],
      [".item-user .text", page, 4.5],
      ['.item-dialog[data-state="open"] .dialog-title', cardBack, 4.5],
      ["#status", page, 4.5],
      ["#mode-picker", page, 4.5],
      ["#changes", page, 4.5],
      // A code block's plain tokens ("total = lines."): the code's own colour on the block's background (#32: they vanished in both high-contrast themes).
      [".item-assistant .code-block pre code", over(rgba((await layout(".item-assistant .code-block", ["background-color"])).styles["background-color"]!), page), 4.5],
    ];
    for (const [selector, back, least] of texts) {
      const { styles } = await layout(selector, ["color", "background-color"]);
      const own = rgba(styles["background-color"]!);
      const behind = own[3] > 0 ? over(own, back) : back;
      const ratio = contrast(over(rgba(styles.color!), behind), behind);
      assert.ok(ratio >= least, `${context}: ${selector} readable: contrast ${ratio.toFixed(2)} (at least ${least}), ${styles.color} on ${JSON.stringify(behind)}`);
    }
    // Every highlighted token of the block too, at the contrast of large or bold text at least.
    const block = over(rgba((await layout(".item-assistant .code-block", ["background-color"])).styles["background-color"]!), page);
    const tokens = await ui.webviewProperties(view, ".item-assistant .code-block pre code", ["childElementCount"]);
    for (let i = 1; i <= Number(tokens.childElementCount); i++) {
      const { styles } = await layout(`.item-assistant .code-block pre code > span:nth-of-type(${i})`, ["color", "opacity"]);
      const colour = rgba(styles.color!);
      const ratio = contrast(over([colour[0], colour[1], colour[2], colour[3] * Number(styles.opacity ?? 1)], block), block);
      assert.ok(ratio >= 3, `${context}: code token ${i} readable: contrast ${ratio.toFixed(2)}, ${styles.color} (opacity ${styles.opacity}) on ${JSON.stringify(block)}`);
    }
  }

  async function throughThemes(view: WebviewRef, surface: string, wide: boolean): Promise<void> {
    for (const theme of themes) {
      await workbench.update("colorTheme", theme.name, vscode.ConfigurationTarget.Global);
      await eventually(`the ${theme.tag} theme in the chat`, async () => String((await ui.webviewProperties(view, "body", ["className"])).className).split(" ").includes(theme.bodyClass) || undefined);
      await check(view, `${surface}, ${theme.tag}`, wide);
      await ui.screenshot(`themes-${surface}-${theme.tag}`);
    }
  }

  it("in the side bar", async () => {
    const host = suiteHost();
    await vscode.commands.executeCommand("pi.focusChat");
    host.api.sessions.focusPrimary();
    const send = async (text: string) => vscode.commands.executeCommand("pi.sendPrompt", text);
    await conversation(chatView, send, () => host.api.supervisor.status === "idle", "themes-side.txt");
    try {
      await throughThemes(chatView, "side-bar", false);
    } finally {
      await ui.pickQuickPickItem("Deny");
      await eventually("the run to settle", () => host.api.supervisor.status === "idle" || undefined, 30_000);
    }
  });

  it("in a wide editor tab", async () => {
    const host = suiteHost();
    const id = await vscode.commands.executeCommand<string>("pi.newSessionInTab");
    const tab = host.api.sessions.get(id)!;
    await vscode.commands.executeCommand("workbench.action.closeSidebar");
    try {
      await eventually("the tab's agent", () => tab.supervisor.status === "idle" || undefined, 30_000);
      // The tab's chat is the one webview on screen (the side bar closed); its title follows the conversation.
      await conversation(0, (text) => tab.chat.prompt(text), () => tab.supervisor.status === "idle", "themes-tab.txt");
      try {
        await throughThemes(0, "wide-tab", true);
      } finally {
        await ui.pickQuickPickItem("Deny");
        await eventually("the tab's run to settle", () => tab.supervisor.status === "idle" || undefined, 30_000);
      }
    } finally {
      await vscode.commands.executeCommand("workbench.action.toggleSidebarVisibility");
      await host.api.sessions.close(tab);
    }
  });
});

// The chat without a mouse: Tab and Enter reach the send and abort buttons, the queue's controls
// and the header's pickers; the transcript is one Tab stop walked with the arrows; every control
// has an accessible name; our high-contrast styles are measured (and focus rings looked at in the screenshots).
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

const unnamed = "button:not([aria-label]), vscode-button:not([aria-label]):empty, [role='button']:not([aria-label]):empty";
const longReply = (words: number) => Array.from({ length: words }, (_, i) => `word${i} `);

/** Whether the element matching `selector` has the focus (one query that always matches something). */
async function focused(selector: string): Promise<boolean> {
  const text = await ui.webviewText(chatView, `body:has(${selector}:focus) #status, body:not(:has(${selector}:focus)) #hint`);
  return !text.includes("Enter");
}

async function expectFocus(selector: string): Promise<void> {
  await eventually(`focus on ${selector}`, () => focused(selector));
}

/** Presses `key` until `selector` has the focus (at most `max` times). */
async function tabTo(selector: string, key: "Tab" | "Shift+Tab", max = 30): Promise<number> {
  for (let presses = 0; presses <= max; presses++) {
    if (await focused(selector)) return presses;
    await ui.pressKey(key);
  }
  throw new Error(`${key} never reached ${selector}`);
}

describe("Pi chat: keyboard and screen readers", function () {
  this.timeout(120_000);
  const fixture = useChatSuite();

  it("gives every control an accessible name and the transcript a polite live log", async () => {
    await chatText("the transcript as a polite log", "#transcript[role='log'][aria-live='polite']", () => true);
    await chatText("no control without a name", `#app:not(:has(${unnamed}))`, () => true);
  });

  it("sends, queues, sends now, aborts and picks a model with the keyboard alone", async () => {
    const agent = fixture();
    const start = agent.llm.requests.length;
    agent.llm.enqueue({ text: longReply(80), delayMs: 100 });
    // Open Chat puts the focus in the message box.
    await vscode.commands.executeCommand("workbench.action.focusActiveEditorGroup");
    await vscode.commands.executeCommand("pi.focusChat");
    await expectFocus("#prompt");
    await ui.typeText("Hello from the keyboard");
    await ui.pressKey("Tab");
    await expectFocus("#send");
    await ui.screenshot("chat-keyboard-send-focused");
    await ui.pressKey("Enter");
    await eventually("the run", () => agent.api.supervisor.status === "running");
    assert.match(JSON.stringify(agent.llm.requests[start]?.body.messages ?? (await agent.llm.waitForRequests(start + 1))[start].body.messages), /Hello from the keyboard/);
    // Back to the box, queue a follow-up, then into the queue with Shift+Tab.
    await tabTo("#prompt", "Shift+Tab");
    await ui.typeText("later, please");
    await ui.pressKey("Alt+Enter");
    await chatText("the queued follow-up", "#queue .queue-item[data-kind='followUp'] .queue-text", (t) => t === "later, please");
    // Editable once the agent reports it queued (until then it shows as sent, without buttons).
    await chatText("the follow-up's remove button", "#queue .queue-item[data-kind='followUp'] [data-action='queue-remove']");
    await ui.pressKey("Shift+Tab");
    await expectFocus("#queue [data-action='queue-remove']");
    await tabTo("#queue [data-action='queue-send-now']", "Shift+Tab", 3);
    await ui.screenshot("chat-keyboard-queue-focused");
    await ui.pressKey("Enter");
    await chatText("sent now: steering", "#queue .queue-item[data-kind='steering'] .queue-text", (t) => t === "later, please");
    await eventually("the agent's queue", () => agent.api.supervisor.agent.queue.view.queue.steering.join() === "later, please" || undefined);
    // Forward to the abort button (it comes after the box while the agent runs).
    await tabTo("#abort", "Tab", 8);
    await ui.pressKey("Enter");
    await settled(agent);
    // pi keeps what was queued across an abort: not for the next test.
    await agent.api.supervisor.client!.request("clear_queue", {});
    // Up to the header: the model picker opens with Enter, the list takes arrows, Escape returns.
    await tabTo("#model-picker", "Shift+Tab");
    await ui.pressKey("Enter");
    await chatText("the model list", ".picker[data-picker='model-picker'] .picker-option.active", (t) => t.includes("mock"));
    await expectFocus(".picker");
    await ui.screenshot("chat-keyboard-picker");
    await ui.pressKey("ArrowDown");
    await ui.pressKey("Escape");
    await expectFocus("#model-picker[aria-expanded='false']");
    await ui.pressKey("Enter");
    await expectFocus(".picker");
    await ui.pressKey("Enter");
    await expectFocus("#model-picker");
    // Ctrl+F and Escape from the keyboard too.
    await ui.pressKey("Control+f");
    await expectFocus(".find-input");
    await ui.pressKey("Escape");
    await expectFocus("#model-picker");
  });

  it("makes the transcript one Tab stop that the arrows, Home, End, Enter and Escape move through", async () => {
    const transcript = fixture().api.chat.transcript;
    // More entries than a reset renders at once: the first ones start as placeholders.
    const count = 120;
    transcript.replaceAll(() => {
      for (let i = 0; i < count; i++) {
        if (i % 2 === 0) transcript.add({ kind: "user", text: `question ${i}` });
        else transcript.add({ kind: "assistant", blocks: [{ type: "text", text: `answer ${i}, see [the docs](https://example.com/${i})\n\n\`\`\`js\nlet x = ${i};\n\`\`\`` }] });
      }
    });
    const keys = transcript.snapshot().map((item) => item.key);
    const entry = (i: number) => `#transcript > .item[data-key='${keys[i]}']`;
    await chatText("the last answer", `${entry(count - 1)} .text`, (t) => t.includes(`answer ${count - 1}`));
    await chatText("a placeholder for the first entry", `#transcript > .item-placeholder[data-key='${keys[0]}']`);
    // No control inside an entry is a Tab stop, and one entry is.
    await chatText("controls out of the Tab order", "#transcript:not(:has(.item :is(button, a[href], summary, pre):not([tabindex='-1'])))");
    await chatText("one entry in the Tab order", `#transcript[tabindex='-1']:has(> .item[tabindex='0'])`);
    // From the message box, Shift+Tab reaches the transcript once (its last entry), then the header.
    await vscode.commands.executeCommand("pi.focusChat");
    await expectFocus("#prompt");
    await ui.pressKey("Shift+Tab");
    await expectFocus(entry(count - 1));
    await ui.pressKey("Shift+Tab");
    await expectFocus("#tool-cards");
    await ui.pressKey("Tab");
    await expectFocus(entry(count - 1));
    // The arrows move between entries; Home reaches the first, which was not rendered yet.
    await ui.pressKey("ArrowUp");
    await expectFocus(entry(count - 2));
    await ui.pressKey("ArrowUp");
    await expectFocus(entry(count - 3));
    await ui.pressKey("ArrowDown");
    await expectFocus(entry(count - 2));
    await ui.pressKey("Home");
    await expectFocus(entry(0));
    assert.equal(await ui.webviewText(chatView, `${entry(0)} .text`), "question 0");
    await ui.pressKey("ArrowDown");
    await expectFocus(entry(1));
    await ui.screenshot("chat-keyboard-transcript-entry");
    // Enter goes into the entry's controls, Tab through them, Escape back to the entry.
    await ui.pressKey("Enter");
    await expectFocus(`${entry(1)} [data-action='copy-message']`);
    await ui.pressKey("Tab");
    await expectFocus(`${entry(1)} a[href]`);
    await ui.pressKey("Escape");
    await expectFocus(entry(1));
    // The entry last focused stays the Tab stop: Tab leaves for the message box, Shift+Tab returns.
    await ui.pressKey("Tab");
    await expectFocus("#prompt");
    await ui.pressKey("Shift+Tab");
    await expectFocus(entry(1));
    await ui.pressKey("End");
    await expectFocus(entry(count - 1));
  });

  it("works in a high-contrast theme", async () => {
    const agent = fixture();
    const config = vscode.workspace.getConfiguration("workbench");
    const before = config.get<string>("colorTheme");
    // Our own high-contrast rules (style.css), not only VS Code's body class: a user message has a
    // left accent only in other themes, and a full contrast border here (its top and bottom add 2 px).
    const userBorders = async () => {
      const box = await ui.webviewProperties(chatView, ".item-user .text", ["offsetHeight", "clientHeight"]);
      return Number(box.offsetHeight) - Number(box.clientHeight);
    };
    try {
      agent.llm.enqueue({ text: "Plain." });
      await typePrompt("Before the theme changes");
      await settled(agent);
      assert.equal(await userBorders(), 0, "no top or bottom border outside high contrast");
      await config.update("colorTheme", "Default High Contrast", vscode.ConfigurationTarget.Global);
      agent.llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "echo contrast" } }] }, { text: "A **reply** with `code`." });
      await chatText("the high-contrast body class", "body.vscode-high-contrast #status", () => true);
      await eventually("our high-contrast border on the user's message", async () => ((await userBorders()) === 2) || undefined);
      await typePrompt("Show the contrast");
      await chatText("the reply", ".item-assistant:last-child .text", (t) => t.includes("reply"));
      await settled(agent);
      // A transcript with a tool card, a code block and buttons of every kind: all of them named.
      await chatText("no control without a name", `#app:not(:has(${unnamed}))`, () => true);
      await ui.pressKey("Shift+Tab");
      await ui.pressKey("Shift+Tab");
      await ui.screenshot("chat-high-contrast");
    } finally {
      await config.update("colorTheme", before === "Default High Contrast" ? undefined : before, vscode.ConfigurationTarget.Global);
    }
  });
});

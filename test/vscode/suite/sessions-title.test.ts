// Sessions are told apart by what they are about: without a name, a session is titled by its
// first prompt (as Pi's own session picker does) in the Sessions list and beside the chat view's
// title (the chat's header where it has room, a tab's title),
// never by its raw session file name.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

describe("Pi sessions: titled by their first prompt", function () {
  this.timeout(90_000);
  const fixture = useChatSuite();

  it("a new session takes its first prompt as its title in the Sessions list and the header", async () => {
    const agent = fixture();
    const before = agent.api.supervisor.state?.sessionId;
    await vscode.commands.executeCommand("pi.newSession");
    await eventually("the new session", () => agent.api.supervisor.state?.sessionId !== before || undefined);
    const session = agent.api.sessions.primary;
    await eventually("the untitled label", () => /^Session \d+$/.test(session.label) || undefined);
    agent.llm.enqueue({ text: "On it." });
    const prompt = "Refactor the greeting module so that it greets in French";
    await typePrompt(prompt);
    await chatText("the reply", ".item-assistant:last-child .text", (t) => t === "On it.");
    await settled(agent);
    // The side bar's narrow header leaves it to the view's own title bar: "CHAT  Refactor the…".
    await eventually("the title beside the view's name", async () => (await ui.text(`.pane-header:has-text("${prompt}")`).catch(() => "")) || undefined);
    await eventually("the session's label", () => session.label === prompt || undefined);
    await vscode.commands.executeCommand("pi.sessions.focus");
    const row = await eventually("the Sessions row", async () => {
      const text = await ui.text(`.monaco-list-row:has-text("${prompt}")`).catch(() => "");
      return text || undefined;
    });
    assert.doesNotMatch(row, /\.jsonl/, "no raw file name in the row");
    await ui.screenshot("sessions-titled-by-first-prompt");
  });
});

// Sessions are told apart by what they are about: without a name, a session is titled by its
// first prompt (as Pi's own session picker does) in the Sessions list and the chat's header,
// never by its raw session file name.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, settled, typePrompt, useChatSuite } from "./chat-support";
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
    assert.equal(await chatText("the header's title", "#session", (t) => t !== ""), prompt);
    await eventually("the session's label", () => session.label === prompt || undefined);
    await vscode.commands.executeCommand("pi.sessions.focus");
    const row = await eventually("the Sessions row", async () => {
      const text = await ui.text(`.monaco-list-row:has-text("${prompt}")`).catch(() => "");
      return text || undefined;
    });
    assert.doesNotMatch(row, /\.jsonl/, "no raw file name in the row");
    assert.equal(await ui.webviewText(chatView, "#session"), prompt);
    await ui.screenshot("sessions-titled-by-first-prompt");
  });
});

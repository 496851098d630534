// Tool cards collapsed and expanded all at once (header button and command), and messages
// copied as markdown to the clipboard.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

const noneOpen = "#transcript:not(:has(.item-tool > details[open]))";
const allOpen = "#transcript:not(:has(.item-tool > details:not([open])))";

describe("Pi chat: tool cards and copying", function () {
  this.timeout(90_000);
  const fixture = useChatSuite();

  it("collapses and expands all tool cards from the header and the command", async () => {
    const agent = fixture();
    agent.llm.enqueue(
      { toolCalls: [{ name: "bash", arguments: { command: "echo card-one" } }] },
      { toolCalls: [{ name: "read", arguments: { path: "src/greet.ts" } }] },
      { text: "Two tools ran." },
    );
    await typePrompt("Run two tools");
    await chatText("the reply", ".item-assistant:last-child .text", (t) => t === "Two tools ran.");
    await settled(agent);
    await chatText("the bash card, open", ".item-tool[data-tool='bash'][data-status='done'] > details[open] .tool-output", (t) => t.includes("card-one"));
    await chatText("the read card, done", ".item-tool[data-tool='read'][data-status='done']");
    await ui.clickInWebview(chatView, "#tool-cards");
    await chatText("every card collapsed", noneOpen);
    assert.equal(await chatText("the button's new label", "#tool-cards[aria-label='Expand all tool cards']", () => true), "");
    await ui.screenshot("chat-tool-cards-collapsed");
    await ui.clickInWebview(chatView, "#tool-cards");
    await chatText("every card expanded", allOpen);
    await vscode.commands.executeCommand("pi.collapseToolCards");
    await chatText("collapsed by the command", noneOpen);
    await vscode.commands.executeCommand("pi.expandToolCards");
    await chatText("expanded by the command", allOpen);
  });

  it("shows a streaming write's card at once: its file and the size so far, then the call", async () => {
    const agent = fixture();
    const content = "const line = 'streamed into the card';\n".repeat(5000);
    // ~200 KB of arguments in 40 pieces, 75 ms apart: three seconds of streaming.
    agent.llm.enqueue({ toolCalls: [{ name: "write", arguments: { path: "streamed-big.txt", content }, argumentChunks: 40 }], delayMs: 75 }, { text: "Written." });
    await typePrompt("Write the big file");
    const card = ".item-tool[data-tool='write']";
    const progress = await chatText("the streaming card's progress", `${card} .tool-progress`, (t) => /^receiving [\d.]+ KB$/.test(t));
    await chatText("its file while it streams", `${card}:has(.tool-progress) .file-link`, (t) => t.includes("streamed-big.txt"));
    await chatText("the progress grows", `${card} .tool-progress`, (t) => t !== progress);
    await chatText("the reply", ".item-assistant:last-child .text", (t) => t === "Written.");
    await settled(agent);
    await chatText("the call done, without progress", `${card}[data-status='done']:not(:has(.tool-progress)) .file-link`, (t) => t.includes("streamed-big.txt"));
    const written = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, "streamed-big.txt");
    assert.equal(fs.readFileSync(written, "utf8"), content);
    fs.rmSync(written, { force: true });
  });

  it("copies a reply and a user message as markdown", async () => {
    const agent = fixture();
    const reply = "Use **bold** and `code`:\n\n```sh\necho hi\n```";
    agent.llm.enqueue({ text: reply });
    await typePrompt("Give me *markdown*");
    await chatText("the reply", ".item-assistant:last-child .code-block code", (t) => t === "echo hi");
    await settled(agent);
    await ui.clickInWebview(chatView, ".item-assistant:last-child [data-action='copy-message']");
    await eventually("the reply's markdown on the clipboard", async () => (await vscode.env.clipboard.readText()) === reply || undefined);
    await ui.clickInWebview(chatView, ".item-user [data-action='copy-message']");
    await eventually("the user message on the clipboard", async () => (await vscode.env.clipboard.readText()) === "Give me *markdown*" || undefined);
  });
});

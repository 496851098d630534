// Context attachment as a user meets it: `@` completion in the chat's box, line ranges of unsaved
// files, @problems, chips removed before sending, "Add to Pi Chat", files dropped and images
// pasted — each checked in what the scripted LLM received from a real pi 0.87.1.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { MockLlm } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { chatText, chatView, lastRequest, openChat, promptBox, settled, useChatSuite } from "./chat-support";
import { ui } from "./ui";

const dotPng = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
const sampleText = "line one\nline two\nline three\nline four\n";

/** The content of the last user message the LLM got: its text, and its image URLs. */
function lastUserMessage(llm: MockLlm): { text: string; images: string[] } {
  const messages = lastRequest(llm)?.body.messages ?? [];
  const user = [...messages].reverse().find((m) => m.role === "user");
  const content = user?.content;
  if (typeof content === "string") return { text: content, images: [] };
  const parts = (Array.isArray(content) ? content : []) as { type?: string; text?: string; image_url?: { url?: string } }[];
  return {
    text: parts.flatMap((p) => (p.type === "text" ? [p.text ?? ""] : [])).join(""),
    images: parts.flatMap((p) => (p.type === "image_url" ? [p.image_url?.url ?? ""] : [])),
  };
}

async function send(agent: ReturnType<ReturnType<typeof useChatSuite>>, reply = "Noted."): Promise<{ text: string; images: string[] }> {
  const before = agent.llm.requests.length;
  agent.llm.enqueue({ text: reply });
  await ui.pressKey("Enter");
  await eventually("the LLM request", () => agent.llm.requests.length > before);
  await settled(agent);
  return lastUserMessage(agent.llm);
}

describe("Chat context: @ mentions and attachments", function () {
  this.timeout(120_000);
  const agent = useChatSuite();
  const root = vscode.workspace.workspaceFolders![0].uri;
  const sample = vscode.Uri.joinPath(root, "src", "mentions-sample.txt");

  before(async () => {
    await vscode.workspace.fs.writeFile(sample, Buffer.from(sampleText));
    // The mock model takes images (pi replaces images by a note for text-only models).
    const models = path.join(agent().launch.agentDir, "models.json");
    const config = JSON.parse(fs.readFileSync(models, "utf8")) as { providers: Record<string, { models: { input: string[] }[] }> };
    for (const model of config.providers.mock.models) model.input = ["text", "image"];
    fs.writeFileSync(models, JSON.stringify(config, null, 2));
    await agent().api.supervisor.restart();
    await agent().api.supervisor.client!.request("set_auto_retry", { enabled: false });
  });
  afterEach(async () => {
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.toString() === sample.toString())) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand("workbench.action.files.revert");
    }
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });
  after(async () => {
    await vscode.workspace.fs.delete(sample).then(undefined, () => undefined);
  });

  it("sends exactly the picked lines of a file's unsaved contents (@ completion, then #L2-3)", async () => {
    const doc = await vscode.workspace.openTextDocument(sample);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((edit) => edit.replace(doc.lineAt(1).range, "line two (unsaved)"));
    assert.ok(doc.isDirty);
    await openChat();

    await ui.typeInWebview(chatView, promptBox, "Explain @mentions-sam");
    const option = '.completion[data-mention="src/mentions-sample.txt"]';
    await chatText("the file in the @ completion", option);
    assert.equal(await ui.webviewText(chatView, '.completion[aria-selected="true"] .completion-name'), "src/mentions-sample.txt");
    await ui.screenshot("chat-mention-completion");
    await ui.pressKey("Enter"); // Picks it: "@src/mentions-sample.txt ".
    await ui.pressKey("Backspace");
    await ui.typeText("#L2-3");
    await chatText("the chip with the range", '.chip[data-kind="mention"] .chip-label', (t) => t === "mentions-sample.txt:2-3");

    const sent = await send(agent());
    assert.equal(
      sent.text,
      'Explain @src/mentions-sample.txt#L2-3\n\n<context type="file" path="src/mentions-sample.txt" lines="2-3">\nline two (unsaved)\nline three\n</context>',
    );
    // The transcript shows the user's words, with the context folded under them.
    await chatText("the user's words", ".item-user .text", (t) => t === "Explain @src/mentions-sample.txt#L2-3");
    await chatText("the folded context", ".item-user details summary", (t) => t.includes("Attached: src/mentions-sample.txt#L2-3"));
  });

  it("@problems carries the workspace's diagnostics", async () => {
    const collection = vscode.languages.createDiagnosticCollection("pi-mentions-test");
    try {
      const problem = new vscode.Diagnostic(new vscode.Range(2, 4, 2, 9), "Mention test problem", vscode.DiagnosticSeverity.Error);
      problem.source = "pi-test";
      collection.set(sample, [problem]);
      await ui.typeInWebview(chatView, promptBox, "@problems what is wrong?");
      await chatText("the problems chip", '.chip[data-kind="mention"] .chip-label', (t) => t === "Problems");
      const sent = await send(agent());
      assert.ok(sent.text.startsWith('@problems what is wrong?\n\n<context type="problems">\n'), sent.text);
      assert.ok(sent.text.includes("src/mentions-sample.txt:3:5 error: Mention test problem [pi-test]"), sent.text);
    } finally {
      collection.dispose();
    }
  });

  it("chips removed before sending (× button, Backspace at the start) are not sent", async () => {
    await ui.typeInWebview(chatView, promptBox, "Summarize @src/mentions-sample.txt please");
    await chatText("the file chip", '.chip[data-kind="mention"] .chip-label', (t) => t === "mentions-sample.txt");
    await ui.clickInWebview(chatView, '.chip[data-kind="mention"] .chip-remove');
    await eventually("the chip to go", async () => (await ui.webviewText(chatView, "#attachments").catch(() => "")) === "" || undefined);
    await ui.screenshot("chat-mention-chips");
    // An image chip goes with Backspace at the start of the box.
    await ui.pasteInWebview(chatView, promptBox, [{ name: "dot.png", mimeType: "image/png", base64: dotPng }]);
    await chatText("the image chip", '.chip[data-kind="image"] .chip-label', (t) => t === "dot.png");
    await ui.clickInWebview(chatView, promptBox);
    await ui.pressKey("Control+Home");
    await ui.pressKey("Backspace");
    await eventually("the image chip to go", async () => (await ui.webviewText(chatView, "#attachments").catch(() => "")) === "" || undefined);
    const sent = await send(agent());
    assert.deepEqual(sent, { text: "Summarize please", images: [] });
  });

  it("Add to Pi Chat and files dropped on the box add chips that are sent", async () => {
    await ui.typeInWebview(chatView, promptBox, "Review");
    await vscode.commands.executeCommand("pi.addToChat", sample);
    await chatText("the chip from Add to Pi Chat", '.chip[data-kind="mention"] .chip-label', (t) => t === "mentions-sample.txt");

    // From the editor: the selection's lines.
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(sample));
    editor.selection = new vscode.Selection(2, 0, 3, 4);
    await vscode.commands.executeCommand("pi.addToChat", sample);
    await chatText("the selection's chip", '.chip[data-kind="mention"]:nth-child(2) .chip-label', (t) => t === "mentions-sample.txt:3-4");

    // Shift+drag from the explorer: a folder, by its URI.
    await ui.dropInWebview(chatView, promptBox, { data: { "text/uri-list": vscode.Uri.joinPath(root, "src").toString() } });
    await chatText("the dropped folder's chip", '.chip[data-kind="mention"]:nth-child(3) .chip-label', (t) => t === "src/");

    await ui.screenshot("chat-mention-chips");
    await ui.clickInWebview(chatView, promptBox);
    const sent = await send(agent());
    assert.ok(sent.text.startsWith("Review @src/mentions-sample.txt @src/mentions-sample.txt#L3-4 @src/\n\n"), sent.text);
    assert.ok(sent.text.includes(`<context type="file" path="src/mentions-sample.txt">\n${sampleText.trimEnd()}\n</context>`), sent.text);
    assert.ok(sent.text.includes('<context type="file" path="src/mentions-sample.txt" lines="3-4">\nline three\nline four\n</context>'), sent.text);
    assert.match(sent.text, /<context type="folder" path="src\/">\n(.*\n)*greet\.ts\n(.*\n)*mentions-sample\.txt\n/);
  });

  it("a pasted image reaches the LLM as an image part", async () => {
    await ui.pasteInWebview(chatView, promptBox, [{ name: "dot.png", mimeType: "image/png", base64: dotPng }]);
    await chatText("the image chip", '.chip[data-kind="image"] .chip-label', (t) => t === "dot.png");
    await ui.typeInWebview(chatView, promptBox, "What is this?");
    const sent = await send(agent());
    assert.equal(sent.text, "What is this?");
    assert.deepEqual(sent.images, [`data:image/png;base64,${dotPng}`]);
    await chatText("the image count on the user's message", ".item-user .item-note", (t) => t === "1 image");
    assert.equal(await ui.webviewText(chatView, "#attachments").catch(() => ""), "", "the chips went with the message");
  });
});

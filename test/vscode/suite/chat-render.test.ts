// What the chat shows as a reply streams in: markdown (headings, code blocks) rendered in the
// DOM, a bash tool card with live output and its result, an edit card with an inline diff and
// a diff editor, and the transcript and draft restored after the view is hidden or reloaded.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatText, chatView, lastRequest, openChat, requestText, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

describe("Pi chat: rendering", function () {
  this.timeout(90_000);
  const fixture = useChatSuite();

  it("wraps a code block's long lines on demand (they otherwise scroll sideways)", async () => {
    const agent = fixture();
    const long = Array.from({ length: 30 }, (_, i) => `segment${i}`).join("_");
    agent.llm.enqueue({ text: `Here:\n\n\`\`\`text\n${long}\n\`\`\`` });
    await typePrompt("Show a long line");
    await chatText("the code", ".item-assistant:last-child .code-block code", (t) => t === long);
    await settled(agent);
    const pre = ".item-assistant:last-child .code-block pre";
    const sizes = async () => (await ui.webviewProperties(chatView, pre, ["scrollWidth", "clientWidth"])) as { scrollWidth: number; clientWidth: number };
    const before = await sizes();
    assert.ok(before.scrollWidth > before.clientWidth, `the line scrolls sideways (${before.scrollWidth} > ${before.clientWidth})`);
    await ui.clickInWebview(chatView, ".item-assistant:last-child .code-block [data-action='wrap-code']");
    await eventually("the line wrapped", async () => {
      const after = await sizes();
      return after.scrollWidth <= after.clientWidth || undefined;
    });
    assert.equal((await ui.webviewProperties(chatView, ".item-assistant:last-child [data-action='wrap-code']", ["ariaPressed"])).ariaPressed, "true");
    // The taller block does not push the reply's end out of view.
    await eventually("the end in view", async () => {
      const s = (await ui.webviewProperties(chatView, "#transcript", ["scrollTop", "scrollHeight", "clientHeight"])) as { scrollTop: number; scrollHeight: number; clientHeight: number };
      return s.scrollHeight - s.scrollTop - s.clientHeight <= 2 || undefined;
    });
    await ui.screenshot("chat-code-wrapped");
  });

  it("renders streamed markdown: headings, emphasis, lists and a highlighted code block", async () => {
    const agent = fixture();
    const reply = "# Plan\n\nFirst, some **bold** words.\n\n```ts\nconst answer: number = 42;\n```\n\n- one\n- two\n\n## Done";
    const chunks = reply.match(/[\s\S]{1,6}/g)!;
    agent.llm.enqueue({ text: chunks, delayMs: 80 });
    await typePrompt("Show markdown");
    await chatText("a heading while streaming", '.item-assistant[data-streaming="true"] h1', (t) => t === "Plan");
    await chatText("the finished reply", '.item-assistant:not([data-streaming="true"]) h2', (t) => t === "Done");
    assert.equal(await ui.webviewText(chatView, ".item-assistant h1"), "Plan");
    assert.equal(await ui.webviewText(chatView, ".item-assistant strong"), "bold");
    assert.equal(await ui.webviewText(chatView, ".item-assistant .code-block code"), "const answer: number = 42;");
    assert.equal(await ui.webviewText(chatView, ".item-assistant .code-block .code-lang"), "ts");
    assert.equal(await ui.webviewText(chatView, ".item-assistant .code-block .hljs-keyword"), "const");
    assert.equal(await ui.webviewText(chatView, ".item-assistant li:last-child"), "two");
    await ui.clickInWebview(chatView, ".item-assistant .code-block [data-action='copy-code']");
    await eventually("the code on the clipboard", async () => (await vscode.env.clipboard.readText()) === "const answer: number = 42;" || undefined);
    await settled(agent);
    await ui.screenshot("chat-markdown");
  });

  it("keeps a word of code selected while its block streams on, and highlights the block once it closes", async () => {
    const agent = fixture();
    // A model writing a file into its reply: the block grows line by line for a few seconds.
    const lines = Array.from({ length: 40 }, (_, i) => `const line${i} = ${i};\n`);
    agent.llm.enqueue({ text: ["The file:\n\n```ts\n", ...lines, "```\n\nDone."], delayMs: 60 });
    await typePrompt("Write the file");
    const code = '.item-assistant[data-streaming="true"] .code-block code';
    await chatText("the first lines", code, (t) => t.includes("line3 ="));
    // The user selects a word to copy it (a double click) while the rest still streams in.
    await ui.clickInWebview(chatView, code, 2);
    const selected = (await ui.webviewSelection(chatView)).trim();
    assert.match(selected, /^(const|line\d+|\d+)$/, `a word of the code selected (${JSON.stringify(selected)})`);
    await chatText("more lines", code, (t) => t.includes("line20 ="));
    assert.equal((await ui.webviewSelection(chatView)).trim(), selected, "the selection survives the block growing");
    await chatText("the finished reply", '.item-assistant:not([data-streaming="true"]) p:last-child', (t) => t === "Done.");
    assert.equal(await ui.webviewText(chatView, ".item-assistant:last-child .code-block .hljs-keyword"), "const");
    assert.ok((await ui.webviewText(chatView, ".item-assistant:last-child .code-block code")).includes("const line39 = 39;"));
    await settled(agent);
  });

  it("shows a bash tool card with live output, then its result and duration", async () => {
    const agent = fixture();
    agent.llm.enqueue(
      { text: "Running it.", toolCalls: [{ name: "bash", arguments: { command: "echo first; sleep 1.5; echo second" } }] },
      { text: "Both lines printed." },
    );
    await typePrompt("Run the script");
    const card = '.item-tool[data-tool="bash"]';
    // The card shows while the call streams in: its summary fills as the arguments arrive.
    await chatText("the command in the card", `${card} .tool-summary`, (t) => t === "echo first; sleep 1.5; echo second");
    await chatText("live output while running", `${card}[data-status="running"] .tool-output`, (t) => t.trim() === "first");
    await ui.screenshot("chat-tool-running");
    await chatText("the result", `${card}[data-status="done"] .tool-output`, (t) => t.trim() === "first\nsecond");
    assert.match(await ui.webviewText(chatView, `${card} .tool-duration`), /^\d+(\.\d)? s$/);
    await chatText("the final answer", ".item-assistant:last-child .text", (t) => t === "Both lines printed.");
    assert.match(requestText(lastRequest(agent.llm)), /first\\nsecond/);
    await settled(agent);
    await ui.screenshot("chat-tool-done");
  });

  it("shows an edit as an inline diff and opens it in a diff editor", async () => {
    const agent = fixture();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const file = vscode.Uri.joinPath(folder, "chat-edit-sample.txt");
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode("alpha\nbeta\ngamma\n"));
    agent.llm.enqueue(
      { toolCalls: [{ name: "edit", arguments: { path: "chat-edit-sample.txt", edits: [{ oldText: "beta", newText: "BETA (edited)" }] } }] },
      { text: "Edited." },
    );
    await typePrompt("Edit the sample");
    const card = '.item-tool[data-tool="edit"][data-status="done"]';
    assert.equal(await chatText("the removed line", `${card} .diff-line.removed .diff-text`), "beta");
    assert.equal(await ui.webviewText(chatView, `${card} .diff-line.added .diff-text`), "BETA (edited)");
    await ui.clickInWebview(chatView, `${card} vscode-button[data-action='open-diff']`);
    const tab = await eventually("the diff editor", () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    });
    const [before, after] = await Promise.all([vscode.workspace.openTextDocument(tab.original), vscode.workspace.openTextDocument(tab.modified)]);
    assert.equal(before.getText(), "alpha\nbeta\ngamma\n");
    assert.equal(after.getText(), "alpha\nBETA (edited)\ngamma\n");
    await ui.waitForSelector(".monaco-diff-editor .view-lines", "visible");
    await ui.screenshot("chat-edit-diff");
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    await settled(agent);
  });

  it("shows the provider's error message when the model request fails", async () => {
    const agent = fixture();
    agent.llm.enqueue({ kind: "error", status: 400, message: "The prompt is too long for this model (provider says no)" });
    await typePrompt("Fail please");
    assert.match(await chatText("the error", ".item-assistant .assistant-error .error-text"), /provider says no/);
    await settled(agent);
  });

  it("runs !command as a shell command with its output and exit code", async () => {
    await typePrompt("!echo from-the-shell; exit 3");
    const item = '.item-bash:not([data-status="running"])';
    assert.equal(await chatText("the command", `${item} .bash-command`), "$ echo from-the-shell; exit 3");
    assert.equal(await chatText("the output", `${item} .tool-output`, (t) => t.trim() !== ""), "from-the-shell\n");
    assert.equal(await ui.webviewText(chatView, `${item} .bash-exit`), "exit 3");
    await ui.screenshot("chat-bash-command");
  });

  it("opens links through the extension: files in the editor, web links only after asking", async () => {
    const agent = fixture();
    agent.llm.enqueue({ text: "See [the greeting](src/greet.ts#L2) and [the docs](https://example.com/docs)." });
    await typePrompt("Where is it?");
    await chatText("the links", ".item-assistant:not([data-streaming]) a", (t) => t === "the greeting");
    await ui.clickInWebview(chatView, ".item-assistant a[data-href='src/greet.ts#L2']");
    const editor = await eventually("greet.ts in an editor", () => {
      const active = vscode.window.activeTextEditor;
      return active?.document.uri.path.endsWith("/src/greet.ts") ? active : undefined;
    });
    assert.equal(editor.selection.active.line, 1);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    await ui.clickInWebview(chatView, ".item-assistant a[data-href='https://example.com/docs']");
    await eventually("the link quick pick", async () => (await ui.quickPickItems()).join() === "Open link,Copy link" || undefined);
    await ui.screenshot("chat-link-confirm");
    await ui.pickQuickPickItem("Copy link");
    await eventually("the link on the clipboard", async () => (await vscode.env.clipboard.readText()) === "https://example.com/docs" || undefined);
    await settled(agent);
  });

  it("a link to a file outside the workspace opens only after the user saw where it leads (absolute, .., a symlink out)", async () => {
    const agent = fixture();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "pi-link-outside-"));
    const secret = path.join(outside, "secret.txt");
    fs.writeFileSync(secret, "not the workspace's\n");
    const link = path.join(folder, "src", "leads-out.txt");
    fs.symlinkSync(secret, link);
    const up = path.relative(folder, secret);
    try {
      agent.llm.enqueue({ text: `Read [one](${secret}), [two](${up}) and [three](src/leads-out.txt).` });
      await typePrompt("Where?");
      await chatText("the links", ".item-assistant:not([data-streaming]) a", (t) => t === "one");
      const opened = () => vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === secret || e.document.uri.fsPath === link);
      for (const [href, shown] of [[secret, secret], [up, secret], ["src/leads-out.txt", `${link} → ${secret}`]] as const) {
        await ui.clickInWebview(chatView, `.item-assistant a[data-href='${href}']`);
        await eventually(`the question for ${href}`, async () => ((await ui.quickPickItems()).join() === "Open file" ? true : undefined));
        assert.ok((await ui.text(".quick-input-widget")).includes(shown), `the question shows ${shown}`);
        await ui.pressKey("Escape");
        await new Promise((resolve) => setTimeout(resolve, 500)); // nothing opens after Escape
        assert.equal(opened(), false, `${href} stayed closed`);
      }
      await ui.clickInWebview(chatView, `.item-assistant a[data-href='${secret}']`);
      await eventually("the question", async () => ((await ui.quickPickItems()).join() === "Open file" ? true : undefined));
      await ui.pickQuickPickItem("Open file");
      await eventually("the file opened once the user said so", () => (opened() ? true : undefined));
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
      await settled(agent);
    } finally {
      fs.rmSync(link, { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("keeps the transcript when hidden and restores it and the draft after a reload", async () => {
    const agent = fixture();
    agent.llm.enqueue({ text: "Remember **this** reply." });
    await typePrompt("Before hiding");
    await chatText("the reply", ".item-assistant:not([data-streaming]) strong", (t) => t === "this");
    await settled(agent);
    await vscode.commands.executeCommand("workbench.view.explorer");
    await openChat();
    assert.equal(await ui.webviewText(chatView, ".item-user .text"), "Before hiding");
    assert.equal(await ui.webviewText(chatView, ".item-assistant strong"), "this");

    await ui.typeInWebview(chatView, "vscode-textarea#prompt textarea", "a draft kept across reloads");
    await new Promise((resolve) => setTimeout(resolve, 600)); // the draft is saved 200 ms after typing
    await vscode.commands.executeCommand("workbench.action.webview.reloadWebviewAction");
    await openChat();
    assert.equal(await chatText("the restored reply", ".item-assistant strong"), "this");
    assert.equal(await ui.webviewText(chatView, ".item-user .text"), "Before hiding");
    // The restored draft is what Enter sends.
    const count = agent.llm.requests.length;
    agent.llm.enqueue({ text: "Got the draft." });
    await ui.clickInWebview(chatView, "vscode-textarea#prompt");
    await ui.pressKey("End");
    await ui.pressKey("Enter");
    await agent.llm.waitForRequests(count + 1);
    assert.match(requestText(lastRequest(agent.llm)), /a draft kept across reloads/);
    await settled(agent);
    await ui.screenshot("chat-restored");
    // A new session starts an empty chat (with pi, under the note of what is guarded).
    await agent.api.supervisor.client!.request("new_session", {});
    await chatText("the emptied chat", ".transcript", (t) => t.trim() === "" || (/^Safeguards with pi\b/.test(t.trim()) && !/Before hiding|Got the draft/.test(t)));
  });
});

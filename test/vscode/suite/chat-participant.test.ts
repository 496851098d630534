// `@pi` in VS Code's own Chat view (issue #35): the request goes to the user's Pi agent (our
// bundled host on the scripted LLM here); the answer, the tool it ran and the file it read show in
// VS Code's chat, and "Open in Pi" shows the same session in our panel. The harness turns VS Code's
// AI features off (chat.disableAIFeatures); this suite turns them on for itself.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { eventually } from "./agent-fixture";
import { chatView } from "./chat-support";
import { useHostSuite } from "./host-fixture";
import { ui } from "./ui";

const chatSession = ".interactive-session";
/** chat.disableAIFeatures exists from VS Code 1.104 or so (not in 1.100). */
const hasAiSwitch = () => vscode.workspace.getConfiguration("chat").inspect("disableAIFeatures")?.defaultValue !== undefined;

describe("chat-participant: @pi in VS Code's Chat view", function () {
  this.timeout(120_000);
  const host = useHostSuite();
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAuxiliaryBar");
    // Open in Pi revealed Pi's chat in the side bar: leave the layout as the suites after expect it.
    await vscode.commands.executeCommand("workbench.action.closeSidebar");
    if (hasAiSwitch()) await vscode.workspace.getConfiguration("chat").update("disableAIFeatures", undefined, vscode.ConfigurationTarget.Global);
  });

  it("answers @pi in VS Code's chat with the tool call and its file shown, and opens the session in Pi", async function () {
    // code-server 4.100.3 (VS Code 1.100) shows no Chat view without Copilot, offline: there the
    // handler is tested through the API (below); VS Code 1.104+ has chat.disableAIFeatures and the view.
    if (!hasAiSwitch()) this.skip();
    assert.equal(typeof vscode.chat.createChatParticipant, "function", `VS Code ${vscode.version} has chat participants`);
    if (hasAiSwitch()) await vscode.workspace.getConfiguration("chat").update("disableAIFeatures", false, vscode.ConfigurationTarget.Global);
    // VS Code's chat sends a request (to any participant) only with a language model available
    // ("Language model unavailable" otherwise): the test extension's, resolved here.
    await eventually("VS Code to list the test model", async () => (await vscode.lm.selectChatModels({ vendor: "pi-test" })).length > 0);
    // The answer after the tool comes slowly: the tool's progress line is on screen meanwhile.
    host().llm.enqueue({ text: "Reading it.", toolCalls: [{ name: "read", arguments: { path: "src/greet.ts" } }] }, { text: ["greet.ts says ", "**hello**."], delayMs: 2500 });
    const count = host().llm.requests.length;
    // What the Chat view does when the user types the line and presses Enter.
    await vscode.commands.executeCommand("workbench.action.chat.open", { query: "@pi what does greet.ts do?", isPartialQuery: false });
    let seen = "";
    await eventually("the tool's progress line in VS Code's chat", async () => {
      seen = await ui.text(chatSession).catch(() => "");
      return seen.includes("read: src/greet.ts");
    }).catch(async (error: unknown) => {
      await ui.screenshot("chat-participant-no-tool-line");
      throw new Error(`${String(error)}; the chat showed: ${seen}`);
    });
    await ui.screenshot("chat-participant-tool");
    await eventually("the agent to answer", () => host().llm.requests.length >= count + 2);
    const answer = await eventually("the answer in VS Code's chat", async () => {
      seen = await ui.text(chatSession).catch(() => "");
      return seen.includes("greet.ts says hello.") && seen.includes("Open in Pi") ? seen : undefined;
    });
    assert.match(answer, /what does greet\.ts do\?/);
    assert.match(answer, /Used 1 reference/, "the file the tool read is the answer's reference");
    await ui.screenshot("chat-participant-answer");

    await ui.click(`${chatSession} .monaco-button:has-text("Open in Pi")`);
    const inPi = await eventually("the session in Pi's own chat", async () => {
      const text = await ui.webviewText(chatView, "#transcript").catch(() => "");
      return text.includes("greet.ts says") ? text : undefined;
    });
    assert.match(inPi, /greet\.ts says/);
  });

  it("runs a request through the handler, streaming text, tool progress, the file and Open in Pi; Stop aborts the run", async () => {
    const api = host().api;
    const recorded = { markdown: [] as string[], progress: [] as string[], references: [] as string[], buttons: [] as string[] };
    const stream = {
      markdown: (value: string | vscode.MarkdownString) => recorded.markdown.push(typeof value === "string" ? value : value.value),
      progress: (value: string) => recorded.progress.push(value),
      reference: (value: vscode.Uri) => recorded.references.push(vscode.workspace.asRelativePath(value, false)),
      button: (command: vscode.Command) => recorded.buttons.push(command.title),
    };
    const ask = (prompt: string, token: vscode.CancellationToken) =>
      api.chatParticipantHandler({ prompt } as unknown as vscode.ChatRequest, { history: [] } as unknown as vscode.ChatContext, stream as unknown as vscode.ChatResponseStream, token);
    host().llm.enqueue({ text: "Reading it.", toolCalls: [{ name: "read", arguments: { path: "src/greet.ts" } }] }, { text: ["greet.ts ", "says ", "hello."] });
    const result = await ask("what does greet.ts do?", new vscode.CancellationTokenSource().token);
    assert.equal(recorded.markdown.join("").replace(/\s+/g, " ").trim(), "Reading it. greet.ts says hello.");
    assert.deepEqual(recorded.progress, ["read: src/greet.ts"]);
    assert.deepEqual(recorded.references, ["src/greet.ts"]);
    assert.deepEqual(recorded.buttons, ["Open in Pi"]);
    assert.deepEqual(result, { metadata: { tools: 1 } });

    // Stop in VS Code's chat: the agent's run is aborted.
    host().llm.enqueue({ text: ["Thinking", " at", " length", " and", " more"], delayMs: 1500 });
    const stop = new vscode.CancellationTokenSource();
    const running = ask("take your time", stop.token);
    await eventually("the slow answer to start", () => api.supervisor.status === "running");
    stop.cancel();
    await running;
    const client = await api.supervisor.ensureStarted();
    const { messages } = (await client.request("get_messages", {})) as { messages: { role: string; stopReason?: string }[] };
    assert.equal(messages.at(-1)?.stopReason, "aborted");
  });
});

// With an agent that lacks our policy (pi 0.87.1 here), the chat says plainly, once, what is and
// is not guarded: no question before it changes a file or runs a command (unless its own
// extensions ask), the sandbox as the header has it, and that the review still lists its changes.
// No jargon toast ("no host tools") instead.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { chatText, chatView, openChat, settled, typePrompt, useChatSuite, useChatSuiteWith } from "./chat-support";
import { eventually } from "./agent-fixture";
import { useHostAgent } from "./host-tools-support";
import { ui } from "./ui";

const note = ".item-notice[data-key='safeguards']";

describe("Pi chat with pi: what is and is not guarded, said once in the chat", function () {
  this.timeout(120_000);
  const fixture = useChatSuite();

  it("says at the top of the chat that pi asks nothing first, how it is sandboxed and that the review lists its changes; once, across a restart; no toast", async () => {
    const agent = fixture();
    await agent.api.supervisor.stop();
    await agent.api.supervisor.ensureStarted();
    await openChat();
    const text = await chatText("the safeguards note", note, (t) => /Changes/.test(t));
    assert.match(text, /pi/);
    assert.match(text, /no question before it changes a file or runs a command/i);
    assert.match(text, /its own extensions/i);
    const sandbox = agent.api.supervisor.sandboxNote;
    assert.match(text, sandbox ? new RegExp(`Sandbox: ${sandbox.label}`) : /Sandbox: on/, text);
    assert.match(text, /Changes view still lists/i);
    assert.doesNotMatch(text, /host tools/i, "no jargon");
    // The chat is still empty: its welcome stays, the note under it.
    const welcome = await ui.webviewLayout(chatView, ".welcome", ["display"]);
    assert.notEqual(welcome.styles.display, "none", "the welcome of an empty chat");
    assert.ok(welcome.box.height > 0 && welcome.box.bottom <= (await ui.webviewLayout(chatView, note)).box.top + 1, "the note under the welcome");
    // No hint offers modes pi does not have.
    assert.equal((await ui.webviewLayout(chatView, ".welcome .hint-mode", ["display"])).styles.display, "none", "the welcome offers no Alt+M");
    assert.doesNotMatch(await ui.webviewText(chatView, "#hint"), /Alt\+M/, "the hint under the box offers no Alt+M");
    await ui.screenshot("chat-safeguards-pi-300px");

    // Once: a restart of the same agent does not say it again.
    await agent.api.supervisor.restart();
    await openChat();
    await eventually("the agent ready again", () => agent.api.supervisor.status === "idle" || undefined);
    const transcript = await ui.webviewText(chatView, "#transcript");
    assert.equal(transcript.split("Changes view still lists").length - 1, 1, transcript);

    // No toast about it: the notifications hold no "host tools".
    await vscode.commands.executeCommand("notifications.showList");
    const notifications = await ui.text(".notifications-center").catch(() => "");
    await vscode.commands.executeCommand("notifications.hideList");
    assert.doesNotMatch(notifications, /host tools/i, notifications);
  });
});

describe("Pi chat with omp: the same note, and omp's plan card in words", function () {
  this.timeout(120_000);
  const fixture = useChatSuiteWith(() => useHostAgent("omp"));

  it("names omp in the note and titles omp's todo call 'Plan: 3 tasks'", async () => {
    const agent = fixture();
    await agent.api.supervisor.restart();
    await openChat();
    const text = await chatText("the safeguards note", note, (t) => /Changes view still lists/.test(t));
    assert.match(text, /^Safeguards with omp/);
    assert.match(text, /No question before it changes a file or runs a command, unless its own extensions ask/);
    agent.llm.enqueue(
      { toolCalls: [{ name: "todo", arguments: { op: "init", list: [{ phase: "Greeting", items: ["Read greet.ts", "Change it", "Test it"] }] } }] },
      { text: "Planned." },
    );
    await typePrompt("Plan the greeting");
    assert.equal(await chatText("the todo card's title", ".item-tool[data-tool='todo'] .tool-summary"), "Plan: 3 tasks");
    await settled(agent);
    await ui.screenshot("chat-safeguards-omp-300px");
    // What omp cannot do that the user did not ask for is in the status tooltip, not a toast; none names it by its runtime.
    await vscode.commands.executeCommand("notifications.showList");
    const notifications = await ui.text(".notifications-center").catch(() => "");
    await vscode.commands.executeCommand("notifications.hideList");
    assert.doesNotMatch(notifications, /session tree|Pi \(bun\)|Pi \(node\)/i, notifications);
  });
});

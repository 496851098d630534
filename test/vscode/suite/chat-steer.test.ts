// Typing while the agent runs: Enter steers (the model's next request carries the message),
// Alt+Enter queues a follow-up; the queue is shown, editable, and Escape puts it back into the
// message box.
import * as assert from "node:assert/strict";
import { endGate } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { chatText, chatView, promptBox, requestText, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

const longReply = (words: number) => Array.from({ length: words }, (_, i) => `word${i} `);

describe("Pi chat: steering and the queue", function () {
  this.timeout(90_000);
  const fixture = useChatSuite();

  it("steers the running agent with Enter: the model's next request has the message", async () => {
    const agent = fixture();
    const start = agent.llm.requests.length;
    // The reply ends once the steering message is queued, however long typing it takes.
    const steered = endGate();
    agent.llm.enqueue({ text: longReply(30), delayMs: 80, holdEndUntil: steered.until }, { text: "Steered as asked." });
    await typePrompt("Start a long task");
    await eventually("the run", () => agent.api.supervisor.status === "running");
    await chatText("streaming text", '.item-assistant[data-streaming="true"] .text', (t) => t.includes("word2"));
    assert.match(await ui.webviewText(chatView, "#hint"), /Enter steers · Alt\+Enter queues a follow-up/);
    assert.equal(await ui.webviewText(chatView, "vscode-button#send"), "Steer");
    await typePrompt("Also mention the tests");
    assert.equal(await chatText("the steering message in the queue", "#queue .queue-item[data-kind='steering'] .queue-text").finally(steered.open), "Also mention the tests");
    await ui.screenshot("chat-steering-queued");
    const [, second] = (await agent.llm.waitForRequests(start + 2)).slice(start);
    assert.match(requestText(second), /Also mention the tests/);
    await chatText("the steered reply", ".item-assistant:last-child .text", (t) => t === "Steered as asked.");
    await settled(agent);
  });

  it("queues follow-ups with Alt+Enter, removes one, and puts the queue back into the box on Escape", async () => {
    const agent = fixture();
    const start = agent.llm.requests.length;
    agent.llm.enqueue({ text: longReply(60), delayMs: 100 });
    await typePrompt("Run for a while");
    await eventually("the run", () => agent.api.supervisor.status === "running");
    await typePrompt("follow one", "Alt+Enter");
    await typePrompt("follow two", "Alt+Enter");
    await chatText("two follow-ups", "#queue", (t) => t.includes("follow one") && t.includes("follow two"));
    await ui.clickInWebview(chatView, "#queue .queue-item:has-text('follow one') [data-action='queue-remove']");
    await chatText("the queue without the removed one", "#queue", (t) => !t.includes("follow one") && t.includes("follow two"));
    await eventually("the agent's queue", () => agent.api.supervisor.agent.queue.view.queue.followUp.join() === "follow two" || undefined);
    await typePrompt("steer three");
    await chatText("steer and follow-up", "#queue", (t) => t.includes("steer three") && t.includes("follow two"));
    await ui.screenshot("chat-queue");
    await ui.pressKey("Escape");
    await eventually("the emptied queue", () => agent.api.supervisor.agent.queue.view.queue.steering.length + agent.api.supervisor.agent.queue.view.queue.followUp.length === 0 || undefined);
    await ui.clickInWebview(chatView, "vscode-button#abort");
    await settled(agent);
    // What Escape put back is what Enter now sends.
    agent.llm.enqueue({ text: "Both handled." });
    await ui.clickInWebview(chatView, "vscode-textarea#prompt");
    await ui.pressKey("Enter");
    await agent.llm.waitForRequests(start + 2);
    const sent = requestText(agent.llm.requests[start + 1]);
    assert.match(sent, /steer three\\n\\nfollow two/);
    assert.doesNotMatch(sent, /follow one/);
    await chatText("the reply", ".item-assistant:last-child .text", (t) => t === "Both handled.");
    await settled(agent);
  });

  it("completes slash commands from the agent's commands", async () => {
    const agent = fixture();
    await ui.typeInWebview(chatView, promptBox, "/ui-t");
    assert.equal(await chatText("the completion", "#completions .completion[aria-selected='true'] .completion-name"), "/ui-timeout");
    await ui.screenshot("chat-completions");
    await ui.pressKey("Tab");
    await ui.pressKey("Enter");
    assert.equal(await chatText("the command's dialog", ".item-dialog .dialog-title"), "Quick, pick one");
    await chatText("the dialog timed out", ".item-dialog[data-state='timedOut']");
    await settled(agent);
  });
});

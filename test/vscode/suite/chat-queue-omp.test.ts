// oh-my-pi sends no queue events: a message steered while it runs is shown in the queue as sent
// (not editable) until omp takes it, so the user sees that something is queued; the model's next
// request has it.
import * as assert from "node:assert/strict";
import { eventually } from "./agent-fixture";
import { chatText, chatView, requestText, settled, typePrompt, useChatSuiteWith } from "./chat-support";
import { useHostAgent } from "./host-tools-support";
import { ui } from "./ui";

const longReply = (words: number) => Array.from({ length: words }, (_, i) => `word${i} `);

describe("Pi chat: the queue with oh-my-pi (no queue events)", function () {
  this.timeout(120_000);
  const fixture = useChatSuiteWith(() => useHostAgent("omp"));

  it("shows a steered message as sent until omp takes it; the model's next request has it", async () => {
    const agent = fixture();
    const { api, llm } = agent;
    const start = llm.requests.length;
    llm.enqueue({ text: longReply(40), delayMs: 80 }, { text: "Steered as asked." });
    await typePrompt("Start a long task");
    await eventually("the run", () => api.supervisor.status === "running");
    await chatText("streaming text", '.item-assistant[data-streaming="true"] .text', (t) => t.includes("word2"));
    await typePrompt("omp steer please");
    assert.equal(await chatText("the sent message in the queue", "#queue .queue-item[data-unconfirmed='true'] .queue-text"), "omp steer please");
    assert.match(await ui.webviewText(chatView, "#queue"), /sent/i);
    await ui.screenshot("chat-queue-omp-sent");
    const [, second] = (await llm.waitForRequests(start + 2, 60_000)).slice(start);
    assert.match(requestText(second), /omp steer please/);
    await eventually("the queue empty once omp took it", async () => (await ui.webviewProperties(chatView, "#queue", ["hidden"])).hidden === true || undefined);
    await settled(agent);
  });
});

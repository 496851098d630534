// oh-my-pi sends no queue events: a message steered while it runs is shown in the queue as sent
// (not editable) until omp takes it, so the user sees that something is queued; the model's next
// request has it.
import * as assert from "node:assert/strict";
import { endGate } from "../../support/mock-llm";
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
    // The reply ends once the message is queued, however long typing it takes.
    const sent = endGate();
    llm.enqueue({ text: longReply(40), delayMs: 80, holdEndUntil: sent.until }, { text: "Steered as asked." });
    await typePrompt("Start a long task");
    await eventually("the run", () => api.supervisor.status === "running");
    await chatText("streaming text", '.item-assistant[data-streaming="true"] .text', (t) => t.includes("word2"));
    await typePrompt("omp steer please");
    assert.equal(await chatText("the sent message in the queue", "#queue .queue-item[data-unconfirmed='true'] .queue-text").finally(sent.open), "omp steer please");
    assert.match(await ui.webviewText(chatView, "#queue"), /sent/i);
    await ui.screenshot("chat-queue-omp-sent");
    const [, second] = (await llm.waitForRequests(start + 2, 60_000)).slice(start);
    assert.match(requestText(second), /omp steer please/);
    await eventually("the queue empty once omp took it", async () => (await ui.webviewProperties(chatView, "#queue", ["hidden"])).hidden === true || undefined);
    await settled(agent);
  });

  it("after Abort the chat matches omp: whatever of the queue reaches the model shows as the user's message, and the queue empties", async () => {
    // omp 18.2.3 has no clear_queue, and after an abort it goes on with what was queued.
    const agent = fixture();
    const { api, llm } = agent;
    const start = llm.requests.length;
    llm.enqueue({ kind: "hang" });
    await typePrompt("Start and hang");
    await llm.waitForRequests(start + 1);
    await eventually("the run", () => api.supervisor.status === "running");
    await typePrompt("omp held A");
    await typePrompt("omp held B", "Alt+Enter");
    await chatText("both sent", "#queue", (t) => t.includes("omp held A") && t.includes("omp held B"));
    await ui.clickInWebview(chatView, "vscode-button#abort");
    await eventually("omp idle with nothing queued", async () => {
      const state = await api.supervisor.client!.request("get_state", {});
      return (!state.isStreaming && (state.queuedMessageCount ?? 0) === 0 && api.supervisor.status === "idle") || undefined;
    }, 30_000);
    await eventually("the queue empty", async () => (await ui.webviewProperties(chatView, "#queue", ["hidden"])).hidden === true || undefined);
    const reached = llm.requests.slice(start + 1).map(requestText).join("\n");
    const users = api.chat.transcript.snapshot().flatMap((i) => (i.kind === "user" ? [i.text] : []));
    for (const text of ["omp held A", "omp held B"]) {
      if (reached.includes(text)) assert.ok(users.includes(text), `${text} reached the model and shows as a user message`);
    }
    await ui.screenshot("chat-queue-omp-after-abort");
  });
});

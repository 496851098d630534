// Editing the queue while the agent runs: entries move up and down (buttons and Alt+Up/Down),
// and "send now" steers with an entry first. The scripted model's requests show the order in
// which the agent received the messages.
import * as assert from "node:assert/strict";
import type { RecordedRequest } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { chatText, chatView, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

const longReply = (words: number) => Array.from({ length: words }, (_, i) => `word${i} `);

/** The text of the last user message of a request: the message the agent was answering. */
function lastUserText(request: RecordedRequest | undefined): string {
  const user = request?.body.messages.filter((m) => m.role === "user").at(-1);
  const content = user?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part) => (part && typeof part === "object" && "text" in part ? String(part.text) : "")).join("") : "";
}

const row = (text: string) => `#queue .queue-item:has(.queue-text:text-is('${text}'))`;

describe("Pi chat: editing the queue", function () {
  this.timeout(120_000);
  const fixture = useChatSuite();

  it("reorders follow-ups with the buttons and Alt+Up; the agent takes them in the new order", async () => {
    const agent = fixture();
    const start = agent.llm.requests.length;
    agent.llm.enqueue({ text: longReply(80), delayMs: 100 }, { text: "one" }, { text: "two" }, { text: "three" });
    await typePrompt("Work for a while");
    await eventually("the run", () => agent.api.supervisor.status === "running");
    for (const text of ["first", "second", "third"]) await typePrompt(text, "Alt+Enter");
    await chatText("three follow-ups", "#queue", (t) => t.includes("first") && t.includes("second") && t.includes("third"));
    // "third" up once with its button; focus stays on that button, so Alt+Up moves it again.
    await ui.clickInWebview(chatView, `${row("third")} [data-action='queue-up']`);
    await chatText("third before second", "#queue .queue-item[data-kind='followUp'][data-index='1'] .queue-text", (t) => t === "third");
    await ui.pressKey("Alt+ArrowUp");
    await chatText("third first", "#queue .queue-item[data-kind='followUp'][data-index='0'] .queue-text", (t) => t === "third");
    await eventually("the agent's queue in the new order", () => agent.api.supervisor.agent.queue.view.queue.followUp.join() === "third,first,second" || undefined);
    await ui.screenshot("chat-queue-reordered");
    const requests = (await agent.llm.waitForRequests(start + 4, 60_000)).slice(start + 1, start + 4);
    assert.deepEqual(requests.map(lastUserText), ["third", "first", "second"]);
    await settled(agent);
  });

  it("sends a queued follow-up now: it is steered first and the rest stays queued", async () => {
    const agent = fixture();
    const start = agent.llm.requests.length;
    agent.llm.enqueue({ text: longReply(80), delayMs: 100 }, { text: "steered" }, { text: "followed" });
    await typePrompt("Work for a while");
    await eventually("the run", () => agent.api.supervisor.status === "running");
    await typePrompt("later A", "Alt+Enter");
    await typePrompt("urgent B", "Alt+Enter");
    await chatText("two follow-ups", "#queue", (t) => t.includes("later A") && t.includes("urgent B"));
    await ui.clickInWebview(chatView, `${row("urgent B")} [data-action='queue-send-now']`);
    assert.equal(await chatText("B is steering now", "#queue .queue-item[data-kind='steering'] .queue-text"), "urgent B");
    await eventually("the agent's queue", () => {
      const queue = agent.api.supervisor.agent.queue.view.queue;
      return (queue.steering.join() === "urgent B" && queue.followUp.join() === "later A") || undefined;
    });
    await ui.screenshot("chat-queue-send-now");
    const requests = (await agent.llm.waitForRequests(start + 3, 60_000)).slice(start + 1, start + 3);
    assert.deepEqual(requests.map(lastUserText), ["urgent B", "later A"]);
    await chatText("the last reply", ".item-assistant:last-child .text", (t) => t === "followed");
    await settled(agent);
  });
});

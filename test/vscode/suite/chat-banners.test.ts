// Retries and compaction as the chat shows them: a banner while pi retries a failed request
// (with the provider's error on the failed reply), and a compaction entry with its summary.
// Its own agent and scripted LLM: these runs take a varying number of model requests.
import * as assert from "node:assert/strict";
import type { MockTurn, RecordedRequest } from "../../support/mock-llm";
import { chatText, chatView, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

describe("Pi chat: retry and compaction", function () {
  this.timeout(90_000);
  const fixture = useChatSuite();

  it("shows a retry as a banner, then the reply; the header names the model", async () => {
    const agent = fixture();
    await agent.api.supervisor.client!.request("set_auto_retry", { enabled: true });
    try {
      agent.llm.enqueue({ kind: "error", status: 503, message: "upstream overloaded" }, { text: "Worked on the second try." });
      await typePrompt("Try twice");
      assert.match(await chatText("the retry banner", ".item-banner[data-tone='warning']"), /Retrying in .* \(attempt 1 of \d+\): .*overloaded/);
      await chatText("the reply after the retry", ".item-assistant:last-child .text", (t) => t === "Worked on the second try.");
      assert.match(await chatText("the finished banner", ".item-banner:not([data-active])"), /Retry succeeded/);
      assert.match(await ui.webviewText(chatView, ".item-assistant .assistant-error .error-text"), /overloaded/);
      assert.ok((await ui.webviewText(chatView, "#model .model-name")).length > 0);
      await settled(agent);
      await ui.screenshot("chat-retry");
    } finally {
      await agent.api.supervisor.client!.request("set_auto_retry", { enabled: false });
    }
  });

  it("shows a compaction with its summary", async () => {
    const agent = fixture();
    // Enough context for pi to cut (it keeps the most recent ~20k tokens). Each turn answers
    // whichever request comes first: the summary request gets the summary.
    const turn = (request: RecordedRequest): MockTurn => (/summar/i.test(JSON.stringify(request.body.messages[0] ?? "")) ? { text: "## Goal\nThe user wanted something said." } : { text: "Noted." });
    agent.llm.enqueue(turn, turn);
    await agent.api.chat.prompt(`Remember this: ${"lorem ipsum dolor sit amet ".repeat(4000)}`);
    await settled(agent);
    await agent.api.supervisor.client!.request("compact", {});
    assert.match(await chatText("the compaction entry", ".item-compaction summary"), /Context compacted/);
    await ui.clickInWebview(chatView, ".item-compaction summary");
    assert.equal(await chatText("the summary", ".item-compaction .markdown h2"), "Goal");
  });
});

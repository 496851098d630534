// The newest output stays in view: the transcript sticks to the bottom while a long reply streams
// (also while the queue opens above the box), stays where the user scrolled to when they scroll
// up, and then offers "Jump to latest", which goes back to the bottom and follows again. Scroll
// positions are read from the webview's DOM.
import * as assert from "node:assert/strict";
import { endGate } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { chatText, chatView, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

const lines = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix} line ${i}: some words to fill the width of the side bar.\n\n`);

interface Scroll {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

async function scroll(): Promise<Scroll> {
  return (await ui.webviewProperties(chatView, "#transcript", ["scrollTop", "scrollHeight", "clientHeight"])) as unknown as Scroll;
}
const fromBottom = (s: Scroll) => s.scrollHeight - s.scrollTop - s.clientHeight;
const jumpHidden = async () => (await ui.webviewProperties(chatView, "#jump-latest", ["hidden"])).hidden === true;

describe("Pi chat: the newest output in view", function () {
  this.timeout(120_000);
  const fixture = useChatSuite();

  it("follows a long streamed reply to its last line, also when the queue opens above the box", async () => {
    const agent = fixture();
    // The first reply ends only once the second prompt is queued: typing it on a loaded machine
    // took longer than the rest of the stream (a red CI on 4.139.1: no queue to wait for).
    const queued = endGate();
    agent.llm.enqueue({ text: lines("first", 80), delayMs: 25, holdEndUntil: queued.until }, { text: lines("steered", 20), delayMs: 10 });
    await typePrompt("Write a long answer");
    await chatText("streaming", '.item-assistant[data-streaming="true"] .text', (t) => t.includes("first line 45"));
    const during = await scroll();
    assert.ok(during.scrollHeight > during.clientHeight * 2, "the reply is longer than the view");
    assert.ok(fromBottom(during) < 60, `at the bottom while streaming (${fromBottom(during)} px from it)`);
    await typePrompt("and mention the tests");
    await chatText("the queue", "#queue .queue-item").finally(queued.open);
    await chatText("the steered reply's end", ".item-assistant:last-child .text", (t) => t.includes("steered line 19"));
    await settled(agent);
    await eventually("the last line in view", async () => fromBottom(await scroll()) <= 2 || undefined, 5_000);
    assert.ok(await jumpHidden(), "no Jump to latest at the bottom");
    await ui.screenshot("chat-scroll-followed");
  });

  it("stays where the user scrolled up to, offers Jump to latest, which follows again", async () => {
    const agent = fixture();
    agent.llm.enqueue({ text: lines("long", 120), delayMs: 30 });
    await typePrompt("Another long answer");
    await chatText("streaming", '.item-assistant[data-streaming="true"] .text', (t) => t.includes("long line 40"));
    await ui.wheelInWebview(chatView, "#transcript", -600);
    const up = await eventually("scrolled up", async () => {
      const s = await scroll();
      return fromBottom(s) > 300 ? s : undefined;
    });
    await chatText("more output", '.item-assistant[data-streaming="true"] .text', (t) => t.includes("long line 70"));
    const later = await scroll();
    assert.ok(Math.abs(later.scrollTop - up.scrollTop) < 5, `the view stays put (${up.scrollTop} → ${later.scrollTop})`);
    assert.equal(await jumpHidden(), false, "Jump to latest is offered");
    await ui.screenshot("chat-scroll-jump-latest");
    await ui.clickInWebview(chatView, "#jump-latest");
    await eventually("back at the bottom", async () => fromBottom(await scroll()) <= 2 || undefined, 5_000);
    await chatText("the end", ".item-assistant:last-child .text", (t) => t.includes("long line 119"));
    await settled(agent);
    await eventually("following to the last line", async () => fromBottom(await scroll()) <= 2 || undefined, 5_000);
    assert.ok(await jumpHidden(), "Jump to latest gone at the bottom");
  });
});

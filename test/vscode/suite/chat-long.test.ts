// A long transcript renders lazily: a reset builds only the last entries, older ones are
// placeholders until scrolled near. Past 325 entries the reset carries the newest 200 and the
// older ones stay in the extension until the webview asks for them (the user scrolls near the
// oldest it has: 250 at a time, each batch a history part of its own; find: all of them). 1,202
// entries are the reset's 200, then parts of 250, 250, 250, 250 and the first 2, so the arrows
// cross from one part into the next within a few presses.
import * as assert from "node:assert/strict";
import { eventually } from "./agent-fixture";
import { chatText, chatView, promptBox, useChatSuite } from "./chat-support";
import { ui } from "./ui";

const count = 1202;
const parts = 5;

/** Whether the element matching `selector` has the focus (one query that always matches something). */
async function focused(selector: string): Promise<boolean> {
  const text = await ui.webviewText(chatView, `body:has(${selector}:focus) #status, body:not(:has(${selector}:focus)) #hint`);
  return !text.includes("Enter");
}

describe("Pi chat: long transcripts", function () {
  this.timeout(120_000);
  const fixture = useChatSuite();

  it("renders the end of a long transcript at once, older entries as the user scrolls up to them or searches", async () => {
    const agent = fixture();
    const transcript = agent.api.chat.transcript;
    const fill = (first: string) =>
      transcript.replaceAll(() => {
        for (let i = 0; i < count; i++) {
          if (i % 2 === 0) transcript.add({ kind: "user", text: i === 0 ? first : `question ${i}` });
          else transcript.add({ kind: "assistant", blocks: [{ type: "text", text: `**answer** ${i}\n\n- a list\n- of things` }] });
        }
      });
    fill("the very first question");
    await chatText("the last answer", "#transcript > .item-assistant:last-child .text", (t) => t.includes(`answer ${count - 1}`));
    // A message sent after the reset arrives after anything sent before it: no older entries came unasked.
    transcript.add({ kind: "notice", text: "a notice after the reset" });
    await chatText("the notice", "#transcript > :last-child", (t) => t.includes("a notice after the reset"));
    await chatText("no history part while the chat is at its end", "#transcript:not(:has(.history-part)) > :last-child", (t) => t.includes("a notice after the reset"), 2_000);
    await ui.screenshot("chat-long-end");

    // Ctrl+Home in the transcript: to the oldest entry there is; near it the next batch is asked for
    // and goes in above, the reader kept in place; again until the very first entry.
    const keys = transcript.snapshot().map((item) => item.key);
    const lastAnswer = "#transcript > .item-assistant:nth-last-child(2) .text";
    for (let part = 1; part <= parts; part++) {
      await ui.clickInWebview(chatView, lastAnswer);
      await ui.pressKey("Control+Home");
      await chatText(`history part ${part}`, `#transcript > :nth-child(${part} of .history-part)`, () => true, 10_000);
    }
    await ui.clickInWebview(chatView, lastAnswer);
    await ui.pressKey("Control+Home");
    assert.equal(await chatText("the first entry rendered", "#transcript > .history-part:first-child > .item-user:first-child .text", (t) => t !== ""), "the very first question");
    await chatText(`the first entry's part (of ${parts}), the first`, `#transcript > .history-part:first-child:has(> .item[data-key='${keys[0]}'])`);
    await ui.screenshot("chat-long-top");
    await ui.pressKey("Control+End");
    await chatText("back at the end", "#transcript > :last-child", (t) => t.includes("a notice after the reset"));

    // Another long conversation, searched at its end: find asks for every older entry and counts them.
    fill("another first question");
    await chatText("its last answer", "#transcript > .item-assistant:last-child .text", (t) => t.includes(`answer ${count - 1}`));
    await ui.clickInWebview(chatView, "#transcript > .item-assistant:last-child .text");
    await ui.pressKey("Control+f");
    await ui.typeText("question 3");
    // User messages are the even entries: "question 30".."question 38" and "question 300".."question 398".
    await chatText("the count, the older entries' matches in it", "#find-bar .find-count", (t) => t.endsWith("of 55"));
    await ui.pressKey("Escape");
    await chatText("no placeholders left", "#transcript:not(:has(.item-placeholder))", () => true);
    const again = transcript.snapshot().map((item) => item.key);

    // The transcript's keys: Home to the first entry, then Down across into the next part and back.
    const entry = (i: number) => `#transcript .item[data-key='${again[i]}']`;
    await ui.clickInWebview(chatView, promptBox);
    await eventually("the message box focused", () => focused("#prompt"));
    await ui.pressKey("Shift+Tab");
    await eventually("the last entry focused", () => focused(entry(count - 1)));
    for (const [key, at] of [["Home", 0], ["ArrowDown", 1], ["ArrowDown", 2], ["ArrowUp", 1], ["End", count - 1]] as const) {
      await ui.pressKey(key);
      await eventually(`${key}: entry ${at} focused`, () => focused(entry(at)));
    }
  });
});

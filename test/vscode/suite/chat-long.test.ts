// A long transcript renders lazily: a reset builds only the last entries, older ones are
// placeholders until scrolled near; find still reaches their text. Past 700 entries the older
// ones come after the reset in batches, each in a history part of its own: 1,202 entries are the
// reset's 200, a part of 1,000 before them and a part of the first 2 before that, so the arrows
// cross from one part into the next within a few presses.
import * as assert from "node:assert/strict";
import { eventually } from "./agent-fixture";
import { chatText, chatView, promptBox, useChatSuite } from "./chat-support";
import { ui } from "./ui";

const count = 1202;

/** Whether the element matching `selector` has the focus (one query that always matches something). */
async function focused(selector: string): Promise<boolean> {
  const text = await ui.webviewText(chatView, `body:has(${selector}:focus) #status, body:not(:has(${selector}:focus)) #hint`);
  return !text.includes("Enter");
}

describe("Pi chat: long transcripts", function () {
  this.timeout(90_000);
  const fixture = useChatSuite();

  it("renders the end of a long transcript at once and the rest when scrolled near or searched", async () => {
    const agent = fixture();
    const transcript = agent.api.chat.transcript;
    transcript.replaceAll(() => {
      for (let i = 0; i < count; i++) {
        if (i % 2 === 0) transcript.add({ kind: "user", text: i === 0 ? "the very first question" : `question ${i}` });
        else transcript.add({ kind: "assistant", blocks: [{ type: "text", text: `**answer** ${i}\n\n- a list\n- of things` }] });
      }
    });
    await chatText("the last answer", "#transcript > .item-assistant:last-child .text", (t) => t.includes(`answer ${count - 1}`));
    const keys = transcript.snapshot().map((item) => item.key);
    await chatText("placeholders for the oldest entries, in the first of two history parts", `#transcript > .history-part:first-child:has(+ .history-part) > .item-placeholder[data-key='${keys[0]}']`, () => true);
    await ui.screenshot("chat-long-end");
    // Ctrl+Home in the transcript: the top renders as it comes near.
    // (A click may land before the view has focus; the user presses again, and so do we.)
    let first = "";
    for (let attempt = 0; attempt < 3 && first !== "the very first question"; attempt++) {
      await ui.clickInWebview(chatView, "#transcript > .item-assistant:last-child .text");
      await ui.pressKey("Control+Home");
      first = await chatText("the first entry rendered", "#transcript > .history-part:first-child > .item-user:first-child .text", () => true, 5_000).catch(() => "");
    }
    assert.equal(first, "the very first question");
    await ui.screenshot("chat-long-top");
    await ui.pressKey("Control+End");
    await chatText("back at the end", "#transcript > .item-assistant:last-child .text", (t) => t.includes(`answer ${count - 1}`));
    // Find renders whatever it has to search.
    await ui.pressKey("Control+f");
    await ui.typeText("question 3");
    // User messages are the even entries: "question 30".."question 38" and "question 300".."question 398".
    assert.equal(await chatText("the count", "#find-bar .find-count", (t) => t !== ""), "1 of 55");
    await ui.pressKey("Escape");
    await chatText("no placeholders left", "#transcript:not(:has(.item-placeholder))", () => true);

    // The transcript's keys: Home to the first entry, then Down across into the next part and back.
    const entry = (i: number) => `#transcript .item[data-key='${keys[i]}']`;
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

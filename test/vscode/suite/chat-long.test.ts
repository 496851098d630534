// A long transcript renders lazily: a reset builds only the last entries, older ones are
// placeholders until scrolled near; find still reaches their text.
import * as assert from "node:assert/strict";
import { chatText, chatView, useChatSuite } from "./chat-support";
import { ui } from "./ui";

const count = 600;

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
    await chatText("the last answer", ".item-assistant:last-child .text", (t) => t.includes(`answer ${count - 1}`));
    await chatText("placeholders for the oldest entries", `#transcript > .item-placeholder[data-key='${transcript.snapshot()[0].key}']`, () => true);
    await ui.screenshot("chat-long-end");
    // Ctrl+Home in the transcript: the top renders as it comes near.
    // (A click may land before the view has focus; the user presses again, and so do we.)
    let first = "";
    for (let attempt = 0; attempt < 3 && first !== "the very first question"; attempt++) {
      await ui.clickInWebview(chatView, ".item-assistant:last-child .text");
      await ui.pressKey("Control+Home");
      first = await chatText("the first entry rendered", "#transcript > .item-user:first-child .text", () => true, 5_000).catch(() => "");
    }
    assert.equal(first, "the very first question");
    await ui.screenshot("chat-long-top");
    await ui.pressKey("Control+End");
    await chatText("back at the end", ".item-assistant:last-child .text", (t) => t.includes(`answer ${count - 1}`));
    // Find renders whatever it has to search.
    await ui.pressKey("Control+f");
    await ui.typeText("question 3");
    // User messages are the even entries: "question 30".."question 38" and "question 300".."question 398".
    assert.equal(await chatText("the count", "#find-bar .find-count", (t) => t !== ""), "1 of 55");
    await ui.pressKey("Escape");
    await chatText("no placeholders left", "#transcript:not(:has(> .item-placeholder))", () => true);
  });
});

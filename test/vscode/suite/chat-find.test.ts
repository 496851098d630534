// Find in the conversation: Ctrl+F in the chat opens the find bar, which counts and steps
// through the matches in the transcript's text (highlighted with CSS highlights) and closes on Escape.
import * as assert from "node:assert/strict";
import { chatText, chatView, settled, typePrompt, useChatSuite } from "./chat-support";
import { ui } from "./ui";

describe("Pi chat: find in the conversation", function () {
  this.timeout(90_000);
  const fixture = useChatSuite();

  it("counts matches, steps through them with Enter and Shift+Enter, and closes on Escape", async () => {
    const agent = fixture();
    agent.llm.enqueue({ text: "A needle here.\n\nAnd another **NEEDLE** in bold, then `needle()` in code." });
    await typePrompt("Where is the needle?");
    await chatText("the reply", ".item-assistant:last-child .text", (t) => t.includes("in code"));
    await settled(agent);
    await ui.clickInWebview(chatView, ".item-assistant:last-child .text");
    await ui.pressKey("Control+f");
    await chatText("the find bar", "#find-bar:not([hidden])");
    await ui.typeText("needle");
    assert.equal(await chatText("the count", "#find-bar .find-count", (t) => t !== ""), "1 of 4");
    await chatText("the first match in the user message", ".item-user[data-find-current]");
    await ui.pressKey("Enter");
    assert.equal(await chatText("the second", "#find-bar .find-count", (t) => t === "2 of 4"), "2 of 4");
    await chatText("the current match in the reply", ".item-assistant[data-find-current]");
    await ui.pressKey("Enter");
    await ui.pressKey("Enter");
    await chatText("the fourth", "#find-bar .find-count", (t) => t === "4 of 4");
    await ui.screenshot("chat-find");
    await ui.pressKey("Enter");
    await chatText("wrapped to the first", "#find-bar .find-count", (t) => t === "1 of 4");
    await ui.pressKey("Shift+Enter");
    await chatText("back to the last", "#find-bar .find-count", (t) => t === "4 of 4");
    await ui.clickInWebview(chatView, "#find-bar [data-action='find-previous']");
    await chatText("previous by button", "#find-bar .find-count", (t) => t === "3 of 4");
    // What is typed is only ever text to look for.
    await ui.clickInWebview(chatView, "#find-bar .find-input");
    await ui.pressKey("Control+a");
    await ui.typeText("<img src=x onerror=alert(1)>");
    await chatText("no results", "#find-bar .find-count", (t) => t === "No results");
    assert.equal(agent.api.chat.cspViolations.length, 0);
    await ui.pressKey("Escape");
    await chatText("the bar closed", "#find-bar[hidden]", () => true);
  });
});

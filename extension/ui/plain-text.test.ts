import * as assert from "node:assert/strict";
import { markdownText, notificationText } from "./plain-text";

describe("plain text in rendered strings", () => {
  const hostile = "x [run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%5Cn%22%7D) $(zap) <img src=x> **b**\n\n[y](https://e)";

  it("escapes every markdown character of foreign text, so no link, icon, html or emphasis forms", () => {
    const escaped = markdownText(hostile);
    assert.doesNotMatch(escaped, /(^|[^\\])[[\]()<>*$]/);
    assert.equal(escaped.replace(/\\(.)/g, "$1"), "x [run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%5Cn%22%7D) $(zap) <img src=x> **b**↵\n↵\n[y](https://e)");
  });

  it("keeps notification links from forming", () => {
    assert.doesNotMatch(notificationText(hostile), /\]\(/);
    assert.match(notificationText(hostile), /\[run\] \(command:/);
  });
});

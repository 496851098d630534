import { strict as assert } from "node:assert";
import { fitsOneLine, visibleText } from "./visible-text";

describe("visibleText", () => {
  it("shows newlines, controls and invisible format characters as marks, dropping nothing", () => {
    assert.equal(visibleText("a\nb\r\nc\td\u0007e\u202ef\u200bg\u2028h"), "a↵\nb\\r↵\nc\\td\\x07e\\u{202e}f\\u{200b}g\\u{2028}h");
    assert.equal(visibleText("plain text, ünïcode ✓"), "plain text, ünïcode ✓");
  });

  it("says whether a text fits one line whole", () => {
    assert.ok(fitsOneLine("npm test", 72));
    assert.ok(!fitsOneLine("x".repeat(73), 72));
    assert.ok(!fitsOneLine("ls\nrm", 72) && !fitsOneLine("ls\u202e", 72));
  });
});

import { strict as assert } from "node:assert";
import { fitsOneLine, visibleText } from "./visible-text";

describe("visibleText", () => {
  it("shows newlines, controls and invisible format characters as marks, dropping nothing", () => {
    assert.equal(visibleText("a\nb\r\nc\td\u0007e\u202ef\u200bg\u2028h"), "a↵\nb\\r↵\nc\\td\\x07e\\u{202e}f\\u{200b}g\\u{2028}h");
    assert.equal(visibleText("plain text, ünïcode ✓"), "plain text, ünïcode ✓");
  });

  it("shows the invisible characters outside the BMP too (tag characters smuggle ASCII text no one sees)", () => {
    // "echo ok" followed by "rm -rf ~" spelled in Unicode tag characters (U+E0000 + ASCII): shown as nothing by every font.
    const smuggled = [..."rm -rf ~"].map((c) => String.fromCodePoint(0xe0000 + c.codePointAt(0)!)).join("");
    assert.equal(visibleText(`echo ok${smuggled}`), `echo ok${[..."rm -rf ~"].map((c) => `\\u{e00${c.codePointAt(0)!.toString(16)}}`).join("")}`);
    // Variation selectors 17-256, the shorthand format controls, musical format controls, the halfwidth Hangul filler.
    for (const c of ["\u{e0100}", "\u{e01ef}", "\u{1bca0}", "\u{1d173}", "\uffa0", "\u{e0001}", "\u{e007f}"]) {
      assert.notEqual(visibleText(`a${c}b`), `a${c}b`, `U+${c.codePointAt(0)!.toString(16)} is shown`);
      assert.ok(!fitsOneLine(`ls${c}`, 72));
    }
    assert.equal(visibleText("emoji 👍🏽 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"), "emoji 👍🏽 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "visible astral characters stay");
  });

  it("says whether a text fits one line whole", () => {
    assert.ok(fitsOneLine("npm test", 72));
    assert.ok(!fitsOneLine("x".repeat(73), 72));
    assert.ok(!fitsOneLine("ls\nrm", 72) && !fitsOneLine("ls\u202e", 72));
  });
});

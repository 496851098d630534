/**
 * Foreign text (a command the agent wants to run, a question an extension asks, a session name)
 * shown so that the user sees every character of it: newlines as a visible ↵ (then a real line
 * break, so a script stays readable), tabs and other control characters as escapes, and the
 * invisible format characters that can reorder or hide text (bidi overrides, zero-width
 * characters, line/paragraph separators, BOM) as `\u{…}`. Nothing is interpreted or dropped.
 */
export function visibleText(text: string): string {
  return text.replace(hiddenChars, (c) => {
    if (c === "\n") return "↵\n";
    if (c === "\r\n") return "\\r↵\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    const code = c.codePointAt(0) ?? 0;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

/** C0/C1 controls and DEL, CR LF as one, and the invisible format characters that change what is shown. */
// Beyond the BMP: tag characters (U+E0000-E007F, an invisible copy of ASCII), variation selectors 17-256, shorthand and musical format controls.
const hiddenChars = /\r\n|[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu;

/** True when the text has a character visibleText would escape (or a newline). */
export function hasHiddenChars(text: string): boolean {
  return hiddenChar.test(text);
}
const hiddenChar = new RegExp(hiddenChars.source, "u");

/**
 * A question line short and plain enough to be shown whole in a one-line place (a quick pick's
 * title, a button): no newline or hidden character, at most `max` characters.
 */
export function fitsOneLine(text: string, max: number): boolean {
  return text.length <= max && !hasHiddenChars(text);
}

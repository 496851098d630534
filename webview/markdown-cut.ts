/** A fence line that opens a code block: up to three spaces, three or more backticks or tildes, an info string. */
const opener = /^( {0,3})(`{3,}|~{3,})([^\n]*)$/;
const closer = /^ {0,3}(`{3,}|~{3,})[ \t\r]*$/;

/** A code fence still open at the end of a streaming text: where its opening line starts, where its code starts. */
export interface OpenFence {
  start: number;
  bodyStart: number;
  /** The opening line's indentation (0-3 spaces). */
  indent: number;
}

/**
 * One pass over the complete lines of a streaming markdown text from `from` (a cut): the last
 * stable cut, and the code fence still open at the end, if any. A cut is a place the text can be
 * cut so that the part before it never renders differently: after a blank line outside a code
 * fence, or after the closing line of a fence opened at the margin (a top-level block: nothing
 * after it changes it; an indented one may belong to a list item). Fences as CommonMark has them:
 * closed by a line of the same character, at least as long.
 */
export function scanStreamingMarkdown(text: string, from: number): { cut: number; open?: OpenFence } {
  let cut = from;
  let open: (OpenFence & { marker: string }) | undefined;
  let lineStart = from;
  while (lineStart < text.length) {
    const lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd === -1) break; // the last line is still being written
    const line = text.slice(lineStart, lineEnd);
    if (open) {
      const close = closer.exec(line);
      if (close && close[1]![0] === open.marker[0] && close[1]!.length >= open.marker.length) {
        if (open.indent === 0) cut = lineEnd + 1;
        open = undefined;
      }
    } else {
      const start = opener.exec(line);
      if (start && !(start[2]![0] === "`" && start[3]!.includes("`"))) open = { start: lineStart, bodyStart: lineEnd + 1, indent: start[1]!.length, marker: start[2]! };
      else if (line.trim() === "" && lineStart > from) cut = lineEnd + 1;
    }
    lineStart = lineEnd + 1;
  }
  if (!open) return { cut };
  const { marker: _marker, ...still } = open;
  return { cut, open: still };
}


/**
 * The open tail of a streaming reply with a link still being written (`[text](https://exa`, its
 * URL or title unfinished) shown as its text, so raw markdown never flashes. Left alone inside a
 * code fence or inline code. The finished message is rendered from the whole text.
 */
export function withoutOpenLink(tail: string): string {
  const lineStart = tail.lastIndexOf("\n") + 1;
  const line = tail.slice(lineStart);
  if (!line.includes("](")) return tail;
  // The URL (no space, backtick or ")"), then perhaps the start of a quoted title.
  const open = /!?\[([^\]\n]*)\]\([^)\s`]*(?:\s+"[^"\n]*)?$/.exec(line);
  if (!open) return tail;
  if ((line.match(/`/g)?.length ?? 0) % 2 === 1) return tail;
  if (scanStreamingMarkdown(tail, 0).open) return tail;
  return tail.slice(0, lineStart + open.index) + open[1];
}

const fence = /^ {0,3}(```|~~~)/;

/**
 * Where a streaming markdown text can be cut so that the part before it never renders
 * differently: after the last blank line at or after `from` that is outside a code fence
 * (`from` itself is such a cut). Returns `from` when there is none yet.
 */
export function stableMarkdownCut(text: string, from: number): number {
  let cut = from;
  let inFence = false;
  let lineStart = from;
  while (lineStart < text.length) {
    const lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd === -1) break; // the last line is still being written
    const line = text.slice(lineStart, lineEnd);
    if (fence.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === "" && lineStart > from) cut = lineEnd + 1;
    lineStart = lineEnd + 1;
  }
  return cut;
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
  if (tail.split("\n").filter((l) => fence.test(l)).length % 2 === 1) return tail;
  return tail.slice(0, lineStart + open.index) + open[1];
}

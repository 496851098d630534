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

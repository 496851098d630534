/** A line diff for the inline view of edit and write tool calls. */
export interface DiffLine {
  op: " " | "-" | "+" | "…";
  text: string;
}

/** Above this many line pairs the diff is "all removed, all added" (the DP table would be too big). */
const maxCells = 2_000_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) (endA--, endB--);
  const head = a.slice(0, start).map((text): DiffLine => ({ op: " ", text }));
  const tail = a.slice(endA).map((text): DiffLine => ({ op: " ", text }));
  return [...head, ...middle(a.slice(start, endA), b.slice(start, endB)), ...tail];
}

function middle(a: string[], b: string[]): DiffLine[] {
  if ((a.length + 1) * (b.length + 1) > maxCells) {
    return [...a.map((text): DiffLine => ({ op: "-", text })), ...b.map((text): DiffLine => ({ op: "+", text }))];
  }
  // lcs[i][j] = length of the longest common subsequence of a[i..] and b[j..]
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) (out.push({ op: " ", text: a[i] }), i++, j++);
    else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) out.push({ op: "-", text: a[i++] });
    else out.push({ op: "+", text: b[j++] });
  }
  while (i < a.length) out.push({ op: "-", text: a[i++] });
  while (j < b.length) out.push({ op: "+", text: b[j++] });
  return out;
}

/** Keeps `context` unchanged lines around each change; longer unchanged runs become one "…" line. */
export function withContext(lines: DiffLine[], context = 3): DiffLine[] {
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.op === " ") return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++) keep[k] = true;
  });
  const out: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (skipped > 0) out.push({ op: "…", text: `${skipped} unchanged line${skipped === 1 ? "" : "s"}` });
      skipped = 0;
      out.push(line);
    } else skipped++;
  });
  if (skipped > 0 && out.length > 0) out.push({ op: "…", text: `${skipped} unchanged line${skipped === 1 ? "" : "s"}` });
  return out;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The edits of an edit tool call (Pi's `edits[]`, or an older single oldText/newText). */
export function editsOf(args: unknown): { oldText: string; newText: string }[] {
  if (!args || typeof args !== "object") return [];
  const a = args as Record<string, unknown>;
  const raw: unknown[] = Array.isArray(a.edits) ? a.edits : typeof a.oldText === "string" ? [{ oldText: a.oldText, newText: a.newText }] : [];
  return raw.flatMap((e) => {
    const { oldText, newText } = (e ?? {}) as { oldText?: unknown; newText?: unknown };
    return typeof oldText === "string" && typeof newText === "string" ? [{ oldText, newText }] : [];
  });
}

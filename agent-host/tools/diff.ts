/**
 * Line diffs for the edit tool's details: a display diff in pi's format (`+12 line`, `-12 line`,
 * ` 12 line`, ` ... ` for skipped context) and a standard unified patch. Myers' algorithm on
 * lines (a line keeps its newline, so a missing final newline is a change, as in diff(1)).
 */

type Kind = "equal" | "add" | "remove";
export interface DiffPart {
  kind: Kind;
  /** Lines with their line endings. */
  lines: string[];
}

/** Beyond this many differences the middle is shown as removed-then-added (keeps memory bounded). */
const MAX_EDIT_DISTANCE = 2000;

const splitLines = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+/g) ?? [];

/** The changes from `a` to `b`, grouped; within a change, removals come before additions. */
export function diffLines(a: string, b: string): DiffPart[] {
  const oldLines = splitLines(a);
  const newLines = splitLines(b);
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  ) suffix++;
  const midA = oldLines.slice(prefix, oldLines.length - suffix);
  const midB = newLines.slice(prefix, newLines.length - suffix);
  const ops: Kind[] = [...Array<Kind>(prefix).fill("equal"), ...myers(midA, midB), ...Array<Kind>(suffix).fill("equal")];

  const parts: DiffPart[] = [];
  let x = 0;
  let y = 0;
  for (let i = 0; i < ops.length; ) {
    if (ops[i] === "equal") {
      const lines: string[] = [];
      while (i < ops.length && ops[i] === "equal") (lines.push(oldLines[x++]), y++, i++);
      parts.push({ kind: "equal", lines });
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    while (i < ops.length && ops[i] !== "equal") {
      if (ops[i] === "remove") removed.push(oldLines[x++]);
      else added.push(newLines[y++]);
      i++;
    }
    if (removed.length) parts.push({ kind: "remove", lines: removed });
    if (added.length) parts.push({ kind: "add", lines: added });
  }
  return parts;
}

function myers(a: string[], b: string[]): Kind[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [...Array<Kind>(n).fill("remove"), ...Array<Kind>(m).fill("add")];
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) (x++, y++);
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return [...Array<Kind>(n).fill("remove"), ...Array<Kind>(m).fill("add")];
}

function backtrack(trace: Int32Array[], n: number, m: number): Kind[] {
  const ops: Kind[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const at = (k: number) => trace[d][k + d];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) (ops.push("equal"), x--, y--);
    if (d > 0) ops.push(x === prevX ? "add" : "remove");
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

const stripEnding = (line: string) => (line.endsWith("\n") ? line.slice(0, -1) : line);

/**
 * pi's display diff: changed lines with their line numbers (new numbers for additions, old for
 * removals and context), up to `contextLines` of context around each change, ` ... ` for the rest.
 */
export function generateDiffString(oldText: string, newText: string, contextLines = 4): { diff: string; firstChangedLine?: number } {
  const parts = diffLines(oldText, newText);
  const width = String(Math.max(oldText.split("\n").length, newText.split("\n").length)).length;
  const num = (n: number) => String(n).padStart(width, " ");
  const skip = ` ${"".padStart(width, " ")} ...`;
  const out: string[] = [];
  let oldNo = 1;
  let newNo = 1;
  let firstChangedLine: number | undefined;
  const context = (lines: string[]) => {
    for (const line of lines) out.push(` ${num(oldNo++)} ${stripEnding(line)}`), newNo++;
  };
  const skipped = (count: number) => {
    if (count <= 0) return;
    out.push(skip);
    oldNo += count;
    newNo += count;
  };
  parts.forEach((part, i) => {
    if (part.kind !== "equal") {
      firstChangedLine ??= newNo;
      for (const line of part.lines) {
        out.push(part.kind === "add" ? `+${num(newNo++)} ${stripEnding(line)}` : `-${num(oldNo++)} ${stripEnding(line)}`);
      }
      return;
    }
    const after = i > 0; // an equal part always follows a change unless it is the first part
    const before = i < parts.length - 1;
    const lines = part.lines;
    if (after && before && lines.length <= contextLines * 2) context(lines);
    else if (after && before) {
      context(lines.slice(0, contextLines));
      skipped(lines.length - 2 * contextLines);
      context(lines.slice(lines.length - contextLines));
    } else if (after) {
      context(lines.slice(0, contextLines));
      skipped(lines.length - contextLines);
    } else if (before) {
      skipped(lines.length - contextLines);
      context(lines.slice(Math.max(0, lines.length - contextLines)));
    } else {
      oldNo += lines.length;
      newNo += lines.length;
    }
  });
  return { diff: out.join("\n"), firstChangedLine };
}

/** A unified patch (`--- path`, `+++ path`, `@@ -a,b +c,d @@` hunks) with `contextLines` of context. */
export function generateUnifiedPatch(path: string, oldText: string, newText: string, contextLines = 4): string {
  const rows: { kind: Kind; line: string }[] = [];
  for (const part of diffLines(oldText, newText)) for (const line of part.lines) rows.push({ kind: part.kind, line });
  const out = [`--- ${path}`, `+++ ${path}`];
  const changes = rows.flatMap((row, i) => (row.kind === "equal" ? [] : [i]));
  let c = 0;
  while (c < changes.length) {
    let last = c;
    while (last + 1 < changes.length && changes[last + 1] - changes[last] - 1 <= contextLines * 2) last++;
    const from = Math.max(0, changes[c] - contextLines);
    const to = Math.min(rows.length, changes[last] + contextLines + 1);
    const before = rows.slice(0, from);
    const hunk = rows.slice(from, to);
    const oldBefore = before.filter((r) => r.kind !== "add").length;
    const newBefore = before.filter((r) => r.kind !== "remove").length;
    const oldCount = hunk.filter((r) => r.kind !== "add").length;
    const newCount = hunk.filter((r) => r.kind !== "remove").length;
    out.push(`@@ -${oldCount ? oldBefore + 1 : oldBefore},${oldCount} +${newCount ? newBefore + 1 : newBefore},${newCount} @@`);
    for (const row of hunk) {
      out.push(`${row.kind === "add" ? "+" : row.kind === "remove" ? "-" : " "}${stripEnding(row.line)}`);
      if (!row.line.endsWith("\n")) out.push("\\ No newline at end of file");
    }
    c = last + 1;
  }
  return `${out.join("\n")}\n`;
}

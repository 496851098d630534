/**
 * The text side of the edit tool, as pi does it: every edit is matched against the original
 * (LF-normalised) content, must match exactly once and must not overlap another; when an oldText
 * only matches after "fuzzy" normalisation (trailing spaces, smart quotes, Unicode dashes and
 * spaces) the replacement happens in normalised space but only the touched lines are rewritten,
 * so the rest of the file keeps its original bytes.
 */

export interface Edit {
  oldText: string;
  newText: string;
}

interface Replacement {
  editIndex: number;
  index: number;
  length: number;
  newText: string;
}

export function detectLineEnding(text: string): "\r\n" | "\n" {
  const lf = text.indexOf("\n");
  const crlf = text.indexOf("\r\n");
  return lf !== -1 && crlf !== -1 && crlf < lf ? "\r\n" : "\n";
}

export const normalizeToLF = (text: string): string => text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");

export const restoreLineEndings = (text: string, ending: "\r\n" | "\n"): string =>
  ending === "\r\n" ? text.replace(/\n/g, "\r\n") : text;

/** What a model's slightly-off oldText is compared in: NFKC, no trailing spaces, ASCII quotes/dashes/spaces. */
export function normalizeForFuzzyMatch(text: string): string {
  return text
    .normalize("NFKC")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}

/** Where oldText is: exactly, or else in fuzzy-normalised space (then `fuzzy` is set). */
function findText(content: string, oldText: string): { index: number; length: number; fuzzy: boolean } | undefined {
  const exact = content.indexOf(oldText);
  if (exact !== -1) return { index: exact, length: oldText.length, fuzzy: false };
  const fuzzyOld = normalizeForFuzzyMatch(oldText);
  const fuzzy = normalizeForFuzzyMatch(content).indexOf(fuzzyOld);
  return fuzzy === -1 ? undefined : { index: fuzzy, length: fuzzyOld.length, fuzzy: true };
}

function countOccurrences(content: string, oldText: string): number {
  return normalizeForFuzzyMatch(content).split(normalizeForFuzzyMatch(oldText)).length - 1;
}

const which = (i: number, total: number, one: string, many: string) => (total === 1 ? one : many.replace("#", String(i)));

/**
 * Applies the edits to LF-normalised content. Throws pi's messages for an empty oldText, no
 * match, several matches, overlapping edits and edits that change nothing.
 */
export function applyEdits(content: string, rawEdits: Edit[], path: string): { baseContent: string; newContent: string } {
  const edits = rawEdits.map((e) => ({ oldText: normalizeToLF(e.oldText), newText: normalizeToLF(e.newText) }));
  const total = edits.length;
  edits.forEach((edit, i) => {
    if (edit.oldText.length === 0) throw new Error(which(i, total, `oldText must not be empty in ${path}.`, `edits[#].oldText must not be empty in ${path}.`));
  });

  const fuzzy = edits.some((edit) => findText(content, edit.oldText)?.fuzzy === true);
  const base = fuzzy ? normalizeForFuzzyMatch(content) : content;
  const replacements: Replacement[] = edits.map((edit, i) => {
    const found = findText(base, edit.oldText);
    if (!found) {
      throw new Error(
        which(
          i,
          total,
          `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`,
          `Could not find edits[#] in ${path}. The oldText must match exactly including all whitespace and newlines.`,
        ),
      );
    }
    const occurrences = countOccurrences(base, edit.oldText);
    if (occurrences > 1) {
      throw new Error(
        which(
          i,
          total,
          `Found ${occurrences} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`,
          `Found ${occurrences} occurrences of edits[#] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`,
        ),
      );
    }
    return { editIndex: i, index: found.index, length: found.length, newText: edit.newText };
  });

  replacements.sort((a, b) => a.index - b.index);
  for (let i = 1; i < replacements.length; i++) {
    const [prev, cur] = [replacements[i - 1], replacements[i]];
    if (prev.index + prev.length > cur.index) {
      throw new Error(`edits[${prev.editIndex}] and edits[${cur.editIndex}] overlap in ${path}. Merge them into one edit or target disjoint regions.`);
    }
  }

  const newContent = fuzzy ? replaceKeepingUntouchedLines(content, base, replacements) : replace(base, replacements, 0);
  if (newContent === content) {
    throw new Error(
      total === 1
        ? `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`
        : `No changes made to ${path}. The replacements produced identical content.`,
    );
  }
  return { baseContent: content, newContent };
}

/** Applies sorted replacements to `text`, whose first character is at `offset` of the matched content. */
function replace(text: string, sorted: Replacement[], offset: number): string {
  let result = text;
  for (let i = sorted.length - 1; i >= 0; i--) {
    const at = sorted[i].index - offset;
    result = result.slice(0, at) + sorted[i].newText + result.slice(at + sorted[i].length);
  }
  return result;
}

/** Line spans (with endings) of a text; the fuzzy base and the original have the same lines. */
function lineSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl + 1;
    spans.push({ start, end });
    start = end;
  }
  return spans;
}

/**
 * Replacements matched in the fuzzy base, applied to the lines they touch (taken from the base);
 * every other line is copied from the original.
 */
function replaceKeepingUntouchedLines(original: string, base: string, sorted: Replacement[]): string {
  const origSpans = lineSpans(original);
  const baseSpans = lineSpans(base);
  if (origSpans.length !== baseSpans.length) {
    throw new Error("Cannot preserve unchanged lines because the base content has a different line count.");
  }
  const lineOf = (pos: number) => {
    const line = baseSpans.findIndex((s) => pos >= s.start && pos < s.end);
    if (line === -1) throw new Error("Replacement range is outside the base content.");
    return line;
  };
  const groups: { first: number; last: number; items: Replacement[] }[] = [];
  for (const r of sorted) {
    const first = lineOf(r.index);
    const last = lineOf(Math.max(r.index, r.index + r.length - 1));
    const group = groups[groups.length - 1];
    if (group && first <= group.last) {
      group.last = Math.max(group.last, last);
      group.items.push(r);
    } else groups.push({ first, last, items: [r] });
  }
  let out = "";
  let nextLine = 0;
  for (const g of groups) {
    out += original.slice(origSpans[nextLine]?.start ?? original.length, origSpans[g.first].start);
    const from = baseSpans[g.first].start;
    out += replace(base.slice(from, baseSpans[g.last].end), g.items, from);
    nextLine = g.last + 1;
  }
  return out + original.slice(origSpans[nextLine]?.start ?? original.length);
}

/** Matching for the find bar, on plain strings (no DOM), so it can be tested alone. */

export interface TextMatch {
  /** Offsets in the searched text, end exclusive. */
  start: number;
  end: number;
}

/** Every non-overlapping occurrence of `query` in `text`, ignoring case. Empty query: none. */
export function findAll(text: string, query: string): TextMatch[] {
  if (!query) return [];
  const pattern = new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "giu");
  const matches: TextMatch[] = [];
  for (const m of text.matchAll(pattern)) matches.push({ start: m.index, end: m.index + m[0].length });
  return matches;
}

/**
 * Where offset `at` of the joined text falls among pieces of these lengths: the piece and the
 * offset in it. An end offset on a boundary stays in the earlier piece (so a range never starts
 * or ends in a piece it does not cover).
 */
export function locate(lengths: readonly number[], at: number, isEnd: boolean): { piece: number; offset: number } {
  let base = 0;
  for (let piece = 0; piece < lengths.length; piece++) {
    const end = base + lengths[piece];
    if (at < end || (isEnd && at === end)) return { piece, offset: at - base };
    base = end;
  }
  const last = Math.max(0, lengths.length - 1);
  return { piece: last, offset: lengths[last] ?? 0 };
}

/** Next (+1) or previous (-1) with wrap-around. */
export function step(index: number, count: number, delta: 1 | -1): number {
  if (count === 0) return -1;
  return (index + delta + count) % count;
}

/**
 * The text side of editor_edit, without the editor: turns the model's edits (exact-text
 * replacements as pi's edit tool takes them, or LSP TextEdits) into non-overlapping offset
 * ranges of the current document text, with messages a model can act on. Unit-tested.
 */

export interface TextReplacement {
  oldText: string;
  newText: string;
}

export interface LspPosition {
  line: number;
  character: number;
}

export interface LspTextEdit {
  range: { start: LspPosition; end: LspPosition };
  newText: string;
}

/** A replacement of `text.slice(start, end)`; `index` is the edit's place in the request. */
export interface OffsetEdit {
  index: number;
  start: number;
  end: number;
  newText: string;
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

const label = (index: number, total: number) => (total === 1 ? "oldText" : `edits[${index}].oldText`);

/**
 * Finds each oldText exactly once in `text`. A document with CRLF line ends also matches an
 * oldText written with LF (the model's usual form); newText then gets the document's line ends.
 */
export function matchReplacements(text: string, edits: readonly TextReplacement[], path: string): OffsetEdit[] {
  if (edits.length === 0) throw new Error("edits is empty: give at least one {oldText, newText}.");
  const crlf = text.includes("\r\n");
  const result = edits.map((edit, index): OffsetEdit => {
    const name = label(index, edits.length);
    if (edit.oldText === "") throw new Error(`${name} is empty in ${path}: give the exact text to replace (use LSP TextEdits with a range to insert).`);
    let oldText = edit.oldText;
    let newText = edit.newText;
    let found = occurrences(text, oldText);
    if (found.length === 0 && crlf && !oldText.includes("\r\n")) {
      oldText = oldText.replace(/\r?\n/g, "\r\n");
      newText = newText.replace(/\r?\n/g, "\r\n");
      found = occurrences(text, oldText);
    }
    if (found.length === 0) {
      throw new Error(`Could not find ${name} in ${path}. It must match the current editor text exactly, including whitespace and line breaks; read the document again with editor_read.`);
    }
    if (found.length > 1) {
      throw new Error(`${name} occurs ${found.length} times in ${path}; it must be unique. Add surrounding lines to make it unique.`);
    }
    const start = found[0]!;
    return { index, start, end: start + oldText.length, newText };
  });
  return checkDisjoint(result);
}

/** Offsets of the starts of the lines of `text` (after "\n"; "\r\n" counts as one break). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return starts;
}

function offsetAt(text: string, starts: readonly number[], position: LspPosition, where: string): number {
  const { line, character } = position;
  if (!Number.isInteger(line) || !Number.isInteger(character) || line < 0 || character < 0) {
    throw new Error(`${where} is not a valid position: line and character are zero-based integers.`);
  }
  if (line >= starts.length) throw new Error(`${where}: line ${line} is beyond the last line (${starts.length - 1}, zero-based).`);
  const lineStart = starts[line]!;
  let lineEnd = line + 1 < starts.length ? starts[line + 1]! - 1 : text.length;
  if (lineEnd > lineStart && text[lineEnd - 1] === "\r") lineEnd--;
  if (lineStart + character > lineEnd) throw new Error(`${where}: character ${character} is beyond the end of line ${line} (${lineEnd - lineStart} characters).`);
  return lineStart + character;
}

/** LSP TextEdits (zero-based lines, UTF-16 characters) as offsets of `text`. */
export function lspEditsToOffsets(text: string, edits: readonly LspTextEdit[]): OffsetEdit[] {
  if (edits.length === 0) throw new Error("edits is empty: give at least one TextEdit.");
  const starts = lineStarts(text);
  const result = edits.map((edit, index): OffsetEdit => {
    const start = offsetAt(text, starts, edit.range.start, `edits[${index}].range.start`);
    const end = offsetAt(text, starts, edit.range.end, `edits[${index}].range.end`);
    if (end < start) throw new Error(`edits[${index}].range ends before it starts.`);
    return { index, start, end, newText: edit.newText };
  });
  return checkDisjoint(result);
}

function checkDisjoint(edits: OffsetEdit[]): OffsetEdit[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i++) {
    const [prev, cur] = [sorted[i - 1]!, sorted[i]!];
    if (prev.end > cur.start || (prev.start === cur.start && prev.end === cur.end)) {
      throw new Error(`edits[${prev.index}] and edits[${cur.index}] overlap; merge them into one edit.`);
    }
  }
  return sorted;
}

/** `text` with the (sorted, disjoint) edits applied. */
export function applyOffsetEdits(text: string, edits: readonly OffsetEdit[]): string {
  let out = "";
  let at = 0;
  for (const edit of edits) {
    out += text.slice(at, edit.start) + edit.newText;
    at = edit.end;
  }
  return out + text.slice(at);
}

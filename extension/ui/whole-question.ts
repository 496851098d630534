import type { DialogRequest } from "../../shared/protocol";
import { fitsOneLine, visibleText } from "../../shared/visible-text";

/**
 * The longest question a one-line place shows whole: a quick pick's title, a notification with
 * answer buttons. VS Code's quick input is at most 600 px wide and cuts its title with an
 * ellipsis; 72 characters fit at the default font in a window of 1000 px and more.
 */
export const oneLineMax = 72;
/** Rows of a long question are cut at this many characters (narrower than a row, never cut by it). */
const rowWidth = 56;

/**
 * A question too long for one line, laid out for a quick pick: a short headline for its title,
 * then the whole question (the confirm's message, and answers too long for a row) as rows above
 * the answers, newlines and control characters visible.
 */
export interface WholeQuestion {
  headline: string;
  rows: string[];
  /** The answers' row labels (numbered when they are written out whole in `rows`). */
  answers: string[];
}

/** True when a question fits a quick pick's one-line title and rows, whole. */
export function fitsQuickPick(request: DialogRequest): boolean {
  if (!fitsOneLine(request.title, oneLineMax)) return false;
  if (request.method === "confirm") return fitsOneLine(request.message, oneLineMax);
  if (request.method === "select") return request.options.every((o) => fitsOneLine(o, oneLineMax));
  return true;
}

/** The whole question as rows; undefined when it fits a quick pick's title as it is. */
export function wholeQuestion(request: DialogRequest): WholeQuestion | undefined {
  if (fitsQuickPick(request)) return undefined;
  const [first, ...rest] = request.title.split("\n");
  const headed = rest.length > 0 && fitsOneLine(first, oneLineMax);
  const parts = [headed ? rest.join("\n") : request.title];
  if (request.method === "confirm") parts.push(request.message);
  const options = request.method === "select" ? request.options : request.method === "confirm" ? ["Yes", "No"] : [];
  const numbered = !options.every((o) => fitsOneLine(o, oneLineMax));
  if (numbered) parts.push(`Answers:\n${options.map((o, i) => `${i + 1}. ${o}`).join("\n")}`);
  return {
    headline: headed ? first : "The agent asks (all of it below):",
    rows: parts.flatMap((part) => rowsOf(visibleText(part))),
    answers: numbered ? options.map((o, i) => `${i + 1}. ${visibleText(o).slice(0, rowWidth)}`) : options,
  };
}

/** Lines cut into rows of `rowWidth`; spaces kept as they are (no-break spaces do not collapse). */
function rowsOf(text: string): string[] {
  return text.split("\n").flatMap((line) => {
    const rows: string[] = [];
    for (let i = 0; i < line.length; i += rowWidth) rows.push(line.slice(i, i + rowWidth));
    return (rows.length > 0 ? rows : [""]).map((row) => row.replace(/ /g, "\u00a0"));
  });
}

import type { Mention, PathKind } from "../shared/webview-protocol";

/**
 * `@` mentions as they are written in the message box: `@src/a.ts`, `@src/a.ts#L10-20`,
 * `@src/` (a folder), `@"my dir/b.ts"#L3` (quoted when the path has spaces), `@selection`,
 * `@problems`. Pure, so it is tested without a DOM.
 */
export interface MentionSpan {
  /** Offsets of the whole token (from the `@`) in the text. */
  start: number;
  end: number;
  mention: Mention;
}

const special = new Set(["selection", "problems"]);
const token = /(^|[\s(])@(?:"([^"\n]+)"|([^\s"]+))(#L(\d+)(?:-L?(\d+))?)?/g;

export function parseMentions(text: string): MentionSpan[] {
  const spans: MentionSpan[] = [];
  for (const match of text.matchAll(token)) {
    const start = match.index + match[1].length;
    let body = match[2] ?? match[3];
    let end = match.index + match[0].length;
    let range = match[4];
    let from = match[5];
    let to = match[6];
    if (match[3] !== undefined) {
      // Unquoted: `#L` is part of the word; trailing punctuation belongs to the sentence.
      const unquoted = /^(.*?)(?:#L(\d+)(?:-L?(\d+))?)?([.,;:!?)\]]*)$/.exec(match[3] + (range ?? ""))!;
      body = unquoted[1];
      range = unquoted[2];
      from = unquoted[2];
      to = unquoted[3];
      end -= unquoted[4].length;
    }
    const mention = toMention(body, match[2] !== undefined, from, to);
    if (mention) spans.push({ start, end, mention });
  }
  return spans;
}

function toMention(body: string, quoted: boolean, from: string | undefined, to: string | undefined): Mention | undefined {
  if (!quoted && special.has(body)) return { kind: body as "selection" | "problems" };
  if (!body || body === "/") return undefined;
  // Unquoted words count as paths only when they look like one (so "@john" stays text).
  if (!quoted && !body.includes("/") && !body.includes(".")) return undefined;
  const lines = from ? ordered(Number(from), Number(to ?? from)) : undefined;
  if (body.endsWith("/") && body.length > 1) return { kind: "folder", path: body.replace(/\/+$/, "") };
  return lines ? { kind: "file", path: body, lines } : { kind: "file", path: body };
}

function ordered(a: number, b: number): { start: number; end: number } | undefined {
  if (!(a >= 1) || !(b >= 1)) return undefined;
  return { start: Math.min(a, b), end: Math.max(a, b) };
}

/** How a mention is written in the box (quoted when it would not read back as the same path). */
export function mentionToken(mention: Mention): string {
  if (mention.kind === "selection" || mention.kind === "problems") return `@${mention.kind}`;
  const path = `${mention.path ?? ""}${mention.kind === "folder" ? "/" : ""}`;
  const lines = mention.lines ? `#L${mention.lines.start}${mention.lines.end !== mention.lines.start ? `-${mention.lines.end}` : ""}` : "";
  const plain = `@${path}${lines}`;
  const back = parseMentions(plain)[0];
  const same = back && back.end === plain.length && back.mention.kind === mention.kind && back.mention.path === mention.path;
  return same ? plain : `@"${path}"${lines}`;
}

/** A short label for a chip: the file's name and its lines. */
export function mentionLabel(mention: Mention): string {
  if (mention.kind === "selection") return "Selection";
  if (mention.kind === "problems") return "Problems";
  const name = (mention.path ?? "").split("/").filter(Boolean).at(-1) ?? mention.path ?? "";
  const lines = mention.lines ? `:${mention.lines.start}${mention.lines.end !== mention.lines.start ? `-${mention.lines.end}` : ""}` : "";
  return `${name}${mention.kind === "folder" ? "/" : ""}${lines}`;
}

/** The `@` word being typed at the caret: where it starts and what follows the `@`. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const quoted = /(^|[\s(])@"([^"\n]*)$/.exec(before);
  const match = quoted ?? /(^|[\s(])@([^\s"#]*)$/.exec(before);
  if (!match) return undefined;
  // The caret must be at the end of the word (not in the middle of one).
  if (!quoted && /^[^\s]/.test(text.slice(caret))) return undefined;
  return { start: match.index + match[1].length, query: match[2] };
}

/** The text with the `@` word at `start` (up to the next whitespace) replaced by `token` and a space. */
export function replaceMentionQuery(text: string, start: number, caret: number, token: string): { text: string; caret: number } {
  const rest = text.slice(caret).replace(/^[^\s]*/, "");
  const inserted = `${token}${rest.startsWith(" ") ? "" : " "}`;
  return { text: text.slice(0, start) + inserted + rest, caret: start + inserted.length + (rest.startsWith(" ") ? 1 : 0) };
}

/** The text without the span (and without the space it leaves doubled). */
export function removeSpan(text: string, start: number, end: number): string {
  const before = text.slice(0, start);
  const after = text.slice(end);
  if (/\s$/.test(before) || before === "") return before + after.replace(/^ /, "");
  return before + after;
}

/** Mentions in order, each one once. */
export function uniqueMentions(mentions: readonly Mention[]): Mention[] {
  const seen = new Set<string>();
  return mentions.filter((m) => {
    const key = JSON.stringify([m.kind, m.path, m.lines?.start, m.lines?.end]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The mentions that get a chip, each with its index among `spans`: @selection and @problems, and a
 * path the extension said is a file or folder (`kindOf`: undefined while not known yet). The word
 * the caret ends is still being typed: it gets one only once it names a file (not on the way, at
 * `@src/` or `@src/mai`). `caret` -1: the box does not have focus.
 */
export function chipSpans(spans: readonly MentionSpan[], text: string, caret: number, kindOf: (path: string) => PathKind | undefined): (MentionSpan & { index: number })[] {
  return spans.flatMap((span, index) => {
    const path = span.mention.path;
    if (path === undefined) return [{ ...span, index }];
    const kind = kindOf(path);
    const typing = caret === span.end && caret === endOfWord(text, span.start);
    const shown = typing ? kind === "file" && span.mention.kind === "file" : kind === "file" || kind === "folder";
    return shown ? [{ ...span, index }] : [];
  });
}

/** Where the word starting at `start` ends (the next whitespace, or the end of the text). */
function endOfWord(text: string, start: number): number {
  const rest = /\s/.exec(text.slice(start));
  return rest ? start + rest.index : text.length;
}

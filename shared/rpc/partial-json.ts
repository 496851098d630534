import { FORBIDDEN_KEYS, parseForeignFrame } from "../foreign-json";

/**
 * Tool-call arguments while they stream in: an incremental parser of a JSON object that reads each
 * chunk once (O(chunk), never the text so far) and can show its best-effort value at any moment,
 * with the meaning of the `partial-json` package that Pi uses (its `Allow.ALL`, the test's oracle):
 * an unterminated string shows its text so far (without a half-read escape), an unterminated number
 * what parses of it, a literal prefix (`t`, `nu`) its literal, open objects and arrays what they
 * hold; a key without its value is left out. Like Pi's repair, raw control characters and unknown
 * escapes inside strings are kept as written. After malformed text the value stops where it broke.
 * The text is the agent's (foreign, issue #30): a `__proto__`, `constructor` or `prototype` key is
 * dropped with its value, as the foreign-JSON door drops it, so no key can reach a prototype.
 *
 * `value()` returns the same object each time, updated in place: the last string can grow by
 * appends (V8 keeps those as ropes), so showing a 1 MB argument per delta costs O(delta).
 */

type Container = Record<string, unknown> | unknown[];

/** What a frame expects next. */
const enum Expect {
  KeyOrEnd,
  Key,
  Colon,
  Value,
  ValueOrEnd,
  CommaOrEnd,
}

const enum Token {
  None,
  String,
  Number,
  Literal,
}

interface Frame {
  container: Container;
  expect: Expect;
  /** The object's key awaiting its value. */
  key: string;
  /** The array's index of the element being read. */
  slot: number;
  /** The current key is a forbidden one: its value is read but placed nowhere. */
  dropped: boolean;
}

const QUOTE = 34, BACKSLASH = 92;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** What String.prototype.trim removes (the same set as \s). */
const TRAILING_SPACE = /\s+$/;
const LITERALS: Record<string, unknown> = { true: true, false: false, null: null };
/** A partial scalar that shows nothing (a lone "-"). */
const NOTHING = Symbol("nothing");

export class PartialJsonParser {
  private root: Record<string, unknown> | undefined;
  private readonly stack: Frame[] = [];
  private token = Token.None;
  /** The string read so far (decoded), or a number's or literal's characters. */
  private text = "";
  /**
   * Raw whitespace at the end of an unterminated string, held apart: partial-json trims the text
   * it is given, so Pi shows the string without it (a slice of `text` would copy it each time).
   */
  private tail = "";
  private stringIsKey = false;
  /** 0: none; 1: after a backslash; 2: reading the four hex digits of \u (in `hex`). */
  private escape = 0;
  private hex = "";
  private ended = false;
  private broken = false;

  /** Reads the next chunk of the JSON text. */
  push(chunk: string): this {
    let i = 0;
    const n = chunk.length;
    while (i < n && !this.broken && !this.ended) {
      if (this.token === Token.String) i = this.readString(chunk, i);
      else if (this.token !== Token.None && isScalarChar(chunk.charCodeAt(i))) this.text += chunk[i++];
      else if (this.token !== Token.None) this.endScalar();
      else i = this.readStructure(chunk, i);
    }
    return this;
  }

  /** The object as far as it has streamed ({} until it starts, or when the text is not an object). */
  value(): Record<string, unknown> {
    if (!this.root) return {};
    if (!this.broken && this.token !== Token.None && !(this.token === Token.String && this.stringIsKey)) {
      // Behind a half-read escape partial-json's text is not trimmed: the whitespace before it shows.
      const partial = this.token === Token.String ? (this.escape ? this.text + this.tail : this.text) : this.token === Token.Number ? partialNumber(this.text) : partialLiteral(this.text);
      this.place(partial);
    }
    return this.root;
  }

  private readString(chunk: string, start: number): number {
    let i = start;
    if (this.escape === 0) {
      while (i < chunk.length) {
        const c = chunk.charCodeAt(i);
        if (c === QUOTE || c === BACKSLASH) break;
        i++;
      }
      if (i > start) this.appendRaw(chunk.slice(start, i));
      if (i === chunk.length) return i;
      if (chunk.charCodeAt(i) === QUOTE) this.endString();
      else this.escape = 1;
      return i + 1;
    }
    const ch = chunk[i]!;
    if (this.escape === 1) {
      this.escape = 0;
      if (ch === "u") {
        this.escape = 2;
        this.hex = "";
      } else this.appendDecoded(ESCAPES[ch] ?? `\\${ch}`); // an unknown escape is kept as written, as Pi's repair does
      return i + 1;
    }
    if (!/[0-9a-fA-F]/.test(ch)) {
      // Not a \u escape after all: keep it as written and read this character again.
      this.appendDecoded(`\\u${this.hex}`);
      this.escape = 0;
      return i;
    }
    this.hex += ch;
    if (this.hex.length === 4) {
      this.appendDecoded(String.fromCharCode(parseInt(this.hex, 16)));
      this.escape = 0;
    }
    return i + 1;
  }

  /** Characters written as they are: trailing whitespace waits in `tail` until something follows it. */
  private appendRaw(raw: string): void {
    const trailing = TRAILING_SPACE.exec(raw);
    if (!trailing) this.appendDecoded(raw);
    else if (trailing.index === 0) this.tail += raw;
    else {
      this.appendDecoded(raw.slice(0, trailing.index));
      this.tail = trailing[0];
    }
  }

  private appendDecoded(text: string): void {
    if (this.tail) {
      this.text += this.tail;
      this.tail = "";
    }
    this.text += text;
  }

  private endString(): void {
    this.token = Token.None;
    const text = this.text + this.tail;
    this.text = "";
    this.tail = "";
    const frame = this.stack[this.stack.length - 1];
    if (this.stringIsKey && frame) {
      frame.key = text;
      frame.dropped = FORBIDDEN_KEYS.has(text);
      frame.expect = Expect.Colon;
    } else this.complete(text);
  }

  private endScalar(): void {
    const text = this.text;
    const isNumber = this.token === Token.Number;
    this.token = Token.None;
    this.text = "";
    if (isNumber ? !NUMBER.test(text) : !(text in LITERALS)) {
      this.broken = true;
      return;
    }
    this.complete(isNumber ? Number(text) : LITERALS[text]);
  }

  private readStructure(chunk: string, i: number): number {
    const ch = chunk[i]!;
    if (ch === " " || ch === "\n" || ch === "\r" || ch === "\t") return i + 1;
    const frame = this.stack[this.stack.length - 1];
    if (!frame) {
      // Before the root: only an object is arguments.
      if (ch !== "{" || this.root) this.broken = true;
      else this.open({});
      return i + 1;
    }
    switch (frame.expect) {
      case Expect.KeyOrEnd:
      case Expect.Key:
        if (ch === '"') this.startString(true);
        else if (ch === "}" && frame.expect === Expect.KeyOrEnd) this.close();
        else this.broken = true;
        return i + 1;
      case Expect.Colon:
        if (ch === ":") frame.expect = Expect.Value;
        else this.broken = true;
        return i + 1;
      case Expect.ValueOrEnd:
        if (ch === "]") {
          this.close();
          return i + 1;
        }
        return this.startValue(ch, i);
      case Expect.Value:
        return this.startValue(ch, i);
      case Expect.CommaOrEnd:
        if (ch === ",") frame.expect = Array.isArray(frame.container) ? Expect.Value : Expect.Key;
        else if (ch === (Array.isArray(frame.container) ? "]" : "}")) this.close();
        else this.broken = true;
        return i + 1;
    }
  }

  private startValue(ch: string, i: number): number {
    const frame = this.stack[this.stack.length - 1]!;
    if (Array.isArray(frame.container)) frame.slot = frame.container.length;
    if (ch === '"') this.startString(false);
    else if (ch === "{") this.open({});
    else if (ch === "[") this.open([]);
    else if (ch === "-" || (ch >= "0" && ch <= "9")) {
      this.token = Token.Number;
      this.text = ch;
    } else if (ch === "t" || ch === "f" || ch === "n") {
      this.token = Token.Literal;
      this.text = ch;
    } else this.broken = true;
    return i + 1;
  }

  private startString(isKey: boolean): void {
    this.token = Token.String;
    this.stringIsKey = isKey;
    this.text = "";
    this.tail = "";
    this.escape = 0;
  }

  private open(container: Container): void {
    if (this.stack.length === 0) this.root = container as Record<string, unknown>;
    else this.complete(container);
    this.stack.push({ container, expect: Array.isArray(container) ? Expect.ValueOrEnd : Expect.KeyOrEnd, key: "", slot: 0, dropped: false });
  }

  private close(): void {
    this.stack.pop();
    if (this.stack.length === 0) this.ended = true;
  }

  /** A value is read (a container is placed when it opens): into its slot, then a comma or the end. */
  private complete(value: unknown): void {
    this.place(value);
    const frame = this.stack[this.stack.length - 1];
    if (frame) frame.expect = Expect.CommaOrEnd;
  }

  /** Sets the innermost frame's current slot (its key, or its next element). */
  private place(value: unknown): void {
    const frame = this.stack[this.stack.length - 1];
    if (!frame || frame.dropped) return;
    const { container } = frame;
    if (Array.isArray(container)) {
      container.length = frame.slot;
      if (value !== NOTHING) container.push(value);
    } else if (value === NOTHING) delete container[frame.key];
    else container[frame.key] = value;
  }
}

function isScalarChar(c: number): boolean {
  // Letters, digits, + - . (a number's or literal's characters); anything else ends the token.
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 43 || c === 45 || c === 46;
}

/** What partial-json shows of an unterminated number: it, or its part before a dangling exponent. */
function partialNumber(text: string): unknown {
  if (NUMBER.test(text)) return Number(text);
  const e = text.lastIndexOf("e");
  return e > 0 && NUMBER.test(text.slice(0, e)) ? Number(text.slice(0, e)) : NOTHING;
}

function partialLiteral(text: string): unknown {
  for (const [word, value] of Object.entries(LITERALS)) if (word.startsWith(text)) return value;
  return NOTHING;
}

/** One-shot: the best-effort object of a whole (maybe unterminated) text, through the foreign-JSON door. */
export function parsePartialJson(text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  const whole = parseForeignFrame(text);
  return whole.ok ? asObject(whole.value) : new PartialJsonParser().push(text).value();
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

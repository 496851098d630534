import { DEFAULT_MAX_LINE_CHARS, parseJsonLine } from "../../../shared/jsonl";
import { POOL_CONTROL_PREFIX, type PoolOutbound } from "../../../shared/protocol/pool";
import { checkPoolControl } from "../../../shared/protocol/pool-check";

/** Where a session's lines go (PooledTransport). */
export interface SessionLines {
  receiveLine(line: string): void;
}

/** Room for the session's id before a record of the longest length a host writes. */
export const POOL_MAX_LINE_CHARS = DEFAULT_MAX_LINE_CHARS + 128;

/**
 * A pool process's stdout lines (read by shared/node/paced-lines.ts), split: `<session> <line>` to that session, `! <json>` control frames
 * checked and handed on. The hot path (a delta's line) costs one `indexOf(" ")` and a slice more
 * than a process of one's own: the line is decoded once, never re-encoded.
 */
export class PoolLines {
  constructor(
    private readonly sessions: ReadonlyMap<string, SessionLines>,
    private readonly onControl: (frame: PoolOutbound) => void,
    private readonly log: (message: string) => void,
  ) {}

  /** One line of the pool's stdout, without its LF. */
  receiveLine(line: string): void {
    if (line.startsWith(POOL_CONTROL_PREFIX)) return this.control(line.slice(POOL_CONTROL_PREFIX.length));
    const space = line.indexOf(" ");
    this.sessions.get(line.slice(0, space))?.receiveLine(line.slice(space + 1));
  }

  private control(text: string): void {
    const parsed = parseJsonLine(text);
    const checked = parsed.ok ? checkPoolControl("out", parsed.value) : { ok: false as const, error: parsed.error };
    if (!checked.ok) return this.log(`pool: a control frame was refused: ${checked.error}`);
    this.onControl(checked.frame);
  }
}

import { coalesceInWindows, type Joining, type WindowCoalescer } from "../../shared/coalesce-in-windows";

/** How the wire paces streamed deltas (ours: set_delta_interval; 0, pi's way, by default). */
export interface DeltaPacing {
  /** Consecutive deltas of one block within this many ms leave as one message_update. */
  readonly intervalMs: number;
  /** Another interval: what is held leaves now, and the next delta at once (a chat back on screen must not wait out a long window). */
  setInterval(ms: number): void;
}

type Update = { type?: unknown; usage?: unknown; assistantMessageEvent?: { type?: unknown; contentIndex?: unknown; delta?: unknown } };

const joinableDeltas = new Set(["text_delta", "thinking_delta", "toolcall_delta"]);

function deltaOf(frame: object): { type: string; contentIndex: unknown; delta: string } | undefined {
  const update = frame as Update;
  if (update.type !== "message_update") return undefined;
  const event = update.assistantMessageEvent;
  if (!event || typeof event.type !== "string" || !joinableDeltas.has(event.type) || typeof event.delta !== "string") return undefined;
  return event as { type: string; contentIndex: unknown; delta: string };
}

/**
 * Pi sends a message_update per provider delta: at 400 deltas a second a client reads and checks
 * 400 lines a second per stream. A client that shows text at its own pace (the editor posts to a
 * chat at most every 50 ms) may ask for fewer: consecutive text, thinking or tool-call deltas of
 * the same block are joined (their texts in order, the latest usage) and leave at most once per
 * interval. Every other frame first sends what is held, so the order on the wire is kept.
 */
export function pacedDeltas(sink: (frame: object) => void, startMs = 0): { pacing: DeltaPacing; paced: WindowCoalescer<object> } {
  let intervalMs = startMs;
  const pacing: DeltaPacing = {
    get intervalMs() {
      return intervalMs;
    },
    setInterval(ms) {
      intervalMs = ms;
      paced.endWindow();
    },
  };
  const joining: Joining<object> = {
    joinable: (frame) => pacing.intervalMs > 0 && deltaOf(frame) !== undefined,
    join: (held, next) => {
      const a = deltaOf(held)!;
      const b = deltaOf(next)!;
      if (a.type !== b.type || a.contentIndex !== b.contentIndex) return undefined;
      return { ...next, assistantMessageEvent: { ...b, delta: a.delta + b.delta } };
    },
    windowMs: () => pacing.intervalMs,
  };
  const paced = coalesceInWindows(sink, joining);
  return { pacing, paced };
}

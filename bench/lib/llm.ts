/**
 * A lean scripted OpenAI chat-completions server for the benchmarks (127.0.0.1, random port).
 * Unlike test/support/mock-llm.ts it keeps no request log beyond timings, does not parse the
 * request body, and writes pre-serialized SSE in a few large writes, so its own cost stays small
 * and is measured (`serverMs`: from a request's headers to the end of its response). It also notes
 * when it writes each benchmark delta (`streams`): the time a delta leaves the model, taken where it
 * leaves, with no wrapper around the agent.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface BenchTurn {
  /** Text deltas, streamed in order. */
  text?: string[];
  /** Text deltas per second, as a model streams them (a write every 10 ms); as fast as the server can write when absent. */
  deltasPerSecond?: number;
  /** A single tool call (arguments as an object), sent whole or in `argumentDelta`-character pieces of its JSON text. */
  toolCall?: { name: string; arguments: Record<string, unknown>; argumentDelta?: number };
}

/** A benchmark stream as the server wrote it: its first delta's index (streamDeltas) and, per delta, when the write carrying it was made (performance.timeOrigin + now(), ms). */
export interface StreamStamps {
  first: number;
  stamps: number[];
}

export interface BenchLlm {
  readonly baseUrl: string;
  /** Replaces the queue of turns (serialized here, not per request); when it runs out every request gets the text "OK.". */
  script(turns: BenchTurn[]): void;
  /** The next `count` requests wait for each other, then are all answered at once (streams that run together). */
  hold(count: number): void;
  /** Chat requests answered, their summed server time, and when each one's last byte was written (performance.now()), since the last reset(). */
  readonly stats: { requests: number; serverMs: number; finishedAt: number[] };
  /** Every stream of streamDeltas answered since the server started, in the order their last write was made. */
  readonly streams: readonly StreamStamps[];
  reset(): void;
  close(): Promise<void>;
}

/**
 * The benchmark stream: `count` deltas of 5 characters, "x" + the index in base 36 + a space, so
 * that whoever shows the text can tell from its last token which delta it has reached. Streams
 * that run at once start at different indexes (`first`), so each chat's text says whose it is.
 * With `paragraph`, every `paragraph`-th delta ends its paragraph (a blank line after its token),
 * as a model's prose does; without, the text is one paragraph (20 KB at 4,000 deltas). With
 * `code`, the text is one fenced code block still open when the stream ends (as a model writing
 * a file into its reply), a line ending every `paragraph`-th delta.
 */
export function streamDeltas(count: number, first = 0, paragraph = 0, code = false): string[] {
  const end = code ? "\n" : "\n\n";
  return Array.from({ length: count }, (_, i) => `${code && i === 0 ? "```ts\n" : ""}x${(first + i).toString(36).padStart(3, "0")} ${paragraph > 0 && (i + 1) % paragraph === 0 ? end : ""}`);
}

/** How many SSE events go into one socket write (a stream of 4,000 deltas = 100 writes). */
const EVENTS_PER_WRITE = 40;

let callCounter = 0;

/** One turn's SSE body: write-sized strings, and how many text deltas each write carries. */
interface SseTurn {
  writes: string[];
  textDeltas: number[];
  /** The index of its first delta when its text is a stream of streamDeltas. */
  first?: number;
  /** Milliseconds from one write to the next (0: at once, a write per event-loop turn). */
  intervalMs: number;
}

/** A paced stream writes every this many milliseconds. */
const PACED_WRITE_MS = 10;

/** The SSE body of one turn, as an array of write-sized strings. */
export function sseWrites(turn: BenchTurn, model = "mock"): string[] {
  return sseTurn(turn, model).writes;
}

function sseTurn(turn: BenchTurn, model = "mock"): SseTurn {
  const id = `chatcmpl-bench-${++callCounter}`;
  const head = `{"id":"${id}","object":"chat.completion.chunk","created":1,"model":${JSON.stringify(model)},"choices":[{"index":0,"delta":`;
  const events: string[] = [];
  const isText: boolean[] = [];
  const push = (delta: string, finish: string | null, text = false): void => {
    events.push(`data: ${head}${delta},"finish_reason":${finish === null ? "null" : `"${finish}"`}}]}\n\n`);
    isText.push(text);
  };
  push(`{"role":"assistant","content":""}`, null);
  for (const t of turn.text ?? []) push(`{"content":${JSON.stringify(t)}}`, null, true);
  if (turn.toolCall) {
    const callId = `call_b${callCounter}`;
    const args = JSON.stringify(turn.toolCall.arguments);
    const size = turn.toolCall.argumentDelta ?? args.length;
    push(`{"tool_calls":[{"index":0,"id":"${callId}","type":"function","function":{"name":"${turn.toolCall.name}","arguments":""}}]}`, null);
    for (let i = 0; i < args.length; i += size) push(`{"tool_calls":[{"index":0,"function":{"arguments":${JSON.stringify(args.slice(i, i + size))}}}]}`, null);
  }
  push("{}", turn.toolCall ? "tool_calls" : "stop");
  events.push(`data: {"id":"${id}","object":"chat.completion.chunk","created":1,"model":"mock","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":10,"total_tokens":110}}\n\n`);
  events.push("data: [DONE]\n\n");
  const writes: string[] = [];
  const textDeltas: number[] = [];
  const perWrite = turn.deltasPerSecond ? Math.max(1, Math.round((turn.deltasPerSecond * PACED_WRITE_MS) / 1000)) : EVENTS_PER_WRITE;
  for (let i = 0; i < events.length; i += perWrite) {
    writes.push(events.slice(i, i + perWrite).join(""));
    textDeltas.push(isText.slice(i, i + perWrite).filter(Boolean).length);
  }
  const first = /^(?:```ts\n)?x([0-9a-z]{3,}) \s*$/.exec(turn.text?.[0] ?? "")?.[1];
  const intervalMs = turn.deltasPerSecond ? (perWrite * 1000) / turn.deltasPerSecond : 0;
  return { writes, textDeltas, intervalMs, ...(first === undefined ? {} : { first: parseInt(first, 36) }) };
}

export async function startBenchLlm(): Promise<BenchLlm> {
  let queue: SseTurn[] = [];
  const streams: StreamStamps[] = [];
  let held: { count: number; waiting: (() => void)[] } | undefined;
  const stats = { requests: 0, serverMs: 0, finishedAt: [] as number[] };
  const fallback = sseTurn({ text: ["OK."] });

  const server = http.createServer((req, res) => {
    const t0 = performance.now();
    const url = req.url ?? "/";
    if (req.method === "GET" && url.includes("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"object":"list","data":[{"id":"mock","object":"model","created":0,"owned_by":"mock"}]}`);
      return;
    }
    // Drain the body without parsing it.
    req.on("data", () => undefined);
    req.on("end", () => {
      if (held) {
        held.waiting.push(answer);
        if (held.waiting.length < held.count) return;
        const waiting = held.waiting;
        held = undefined;
        for (const start of waiting) start();
        return;
      }
      answer();
    });
    function answer(): void {
      const { writes, textDeltas, first, intervalMs } = queue.shift() ?? fallback;
      const start = performance.now();
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      const stamps: number[] = [];
      let i = 0;
      // Each delta's time is when the write carrying it is made (the socket may hold it a while if the agent reads slowly).
      const stamp = (): void => {
        const now = performance.timeOrigin + performance.now();
        for (let n = textDeltas[i]!; n > 0; n--) stamps.push(now);
      };
      const next = (): void => {
        if (res.destroyed) return;
        stamp();
        if (i === writes.length - 1) {
          res.end(writes[i]);
          if (first !== undefined) streams.push({ first, stamps });
          return;
        }
        res.write(writes[i++]!);
        // Paced: each write at its time from the start (no drift from late timers).
        if (intervalMs > 0) setTimeout(next, Math.max(0, start + i * intervalMs - performance.now()));
        else setImmediate(next);
      };
      res.on("finish", () => {
        const now = performance.now();
        stats.requests++;
        stats.serverMs += now - t0;
        stats.finishedAt.push(now);
      });
      next();
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    script(turns) {
      queue = turns.map((t) => sseTurn(t));
    },
    hold(count) {
      held = { count, waiting: [] };
    },
    stats,
    streams,
    reset() {
      stats.requests = 0;
      stats.serverMs = 0;
      stats.finishedAt = [];
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

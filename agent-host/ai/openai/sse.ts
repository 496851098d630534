import { bodyChunks, type ByteStream } from "../http/response";
import { StreamReportedError } from "./errors";

/**
 * The JSON payloads of a server-sent-events body, in order, until `[DONE]`, a batch per chunk read
 * (a fast server sends dozens of events per chunk: one await per batch, not per event). Linear in
 * the body size (the SDK's own decoder re-slices its buffer after every event). An `error` object
 * inside the stream is thrown as StreamReportedError, as the SDK does.
 */
export async function* readSseJson(body: ReadableStream<Uint8Array> | ByteStream): AsyncGenerator<Record<string, unknown>[]> {
  const decoder = new TextDecoder();
  let buffer = "";
  let finished = false;
  let failure: unknown;
  /** The complete events in the buffer (and, at the end, a last one without its blank line); a failing event ends the batch. */
  const take = (final: boolean): Record<string, unknown>[] => {
    if (buffer.includes("\r")) {
      // A CR that ends a read may be the first half of a CRLF: it waits for the next byte (else a
      // line break split across reads became two, ending an event between its data lines).
      const held = !final && buffer.endsWith("\r") ? "\r" : "";
      buffer = buffer.slice(0, buffer.length - held.length).replace(/\r\n?/g, "\n") + held;
    }
    const batch: Record<string, unknown>[] = [];
    let start = 0;
    for (let end = buffer.indexOf("\n\n", start); end !== -1; end = buffer.indexOf("\n\n", start)) {
      const payload = eventData(buffer.slice(start, end));
      start = end + 2;
      if (payload === undefined) continue;
      if (payload === "[DONE]") {
        finished = true;
        return batch;
      }
      if (!push(batch, payload)) return batch;
    }
    buffer = buffer.slice(start);
    const payload = final ? eventData(buffer) : undefined;
    if (payload !== undefined && payload !== "[DONE]") push(batch, payload);
    return batch;
  };
  const push = (batch: Record<string, unknown>[], payload: string): boolean => {
    try {
      batch.push(parseEvent(payload));
      return true;
    } catch (error) {
      failure = error;
      return false;
    }
  };
  for await (const chunk of bodyChunks(body)) {
    buffer += decoder.decode(chunk, { stream: true });
    const batch = take(false);
    if (batch.length > 0) yield batch;
    if (failure) throw failure;
    if (finished) return;
  }
  buffer += decoder.decode();
  const batch = take(true);
  if (batch.length > 0) yield batch;
  if (failure) throw failure;
}

/** One event's JSON; an `error` object inside the stream is thrown as StreamReportedError, as the SDK does. */
function parseEvent(payload: string): Record<string, unknown> {
  const data = JSON.parse(payload) as Record<string, unknown>;
  const error = data.error as { message?: unknown; code?: unknown } | undefined;
  if (error && typeof error === "object") throw new StreamReportedError(String(error.message ?? "The server reported an error"), typeof error.code === "string" ? error.code : undefined);
  return data;
}

/** The `data:` lines of one event joined (undefined for a comment-only or empty event). */
function eventData(event: string): string | undefined {
  let data: string | undefined;
  for (const line of event.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}

import { StreamReportedError } from "./errors";

/**
 * The JSON payloads of a server-sent-events body, in order, until `[DONE]`. Linear in the body
 * size (the SDK's own decoder re-slices its buffer after every event). An `error` object inside
 * the stream is thrown as StreamReportedError, as the SDK does.
 */
export async function* readSseJson(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (buffer.includes("\r")) buffer = buffer.replace(/\r\n?/g, "\n");
      let start = 0;
      for (let end = buffer.indexOf("\n\n", start); end !== -1; end = buffer.indexOf("\n\n", start)) {
        const payload = eventData(buffer.slice(start, end));
        start = end + 2;
        if (payload === undefined) continue;
        if (payload === "[DONE]") return;
        const data = JSON.parse(payload) as Record<string, unknown>;
        const error = data.error as { message?: unknown; code?: unknown } | undefined;
        if (error && typeof error === "object") throw new StreamReportedError(String(error.message ?? "The server reported an error"), typeof error.code === "string" ? error.code : undefined);
        yield data;
      }
      buffer = buffer.slice(start);
      if (done) {
        const payload = eventData(buffer);
        if (payload !== undefined && payload !== "[DONE]") yield JSON.parse(payload) as Record<string, unknown>;
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
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

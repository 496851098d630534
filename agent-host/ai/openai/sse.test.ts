import { strict as assert } from "node:assert";
import { readSseJson } from "./sse";

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const batch of readSseJson(body(chunks))) out.push(...batch);
  return out;
}

describe("SSE reader", () => {
  it("reads events split anywhere, with CRLF, comments, multi-line data and [DONE]", async () => {
    const text = ': keep-alive\r\n\r\ndata: {"a":1}\r\n\r\nevent: message\ndata: {"b":\ndata: 2}\n\ndata:{"c":"é"}\n\ndata: [DONE]\n\ndata: {"after":true}\n\n';
    const bytes = [...text];
    for (const size of [1, 3, 7, 1000]) {
      const chunks: string[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size).join(""));
      assert.deepEqual(await collect(chunks), [{ a: 1 }, { b: 2 }, { c: "é" }], `chunks of ${size}`);
    }
  });

  it("throws an error reported inside the stream, with its code", async () => {
    await assert.rejects(collect(['data: {"x":1}\n\n', 'data: {"error":{"message":"boom","code":"server_error"}}\n\n']), (e: Error & { code?: string }) => e.message === "boom" && e.code === "server_error");
  });

  it("reads a last event without its blank line", async () => {
    assert.deepEqual(await collect(['data: {"x":1}\n\ndata: {"y":2}']), [{ x: 1 }, { y: 2 }]);
  });
});

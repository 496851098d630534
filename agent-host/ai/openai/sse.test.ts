import { strict as assert } from "node:assert";
import { Stream } from "openai/streaming";
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

  it("reads what the OpenAI SDK's own decoder reads (the oracle), for random streams cut at random places", async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 50; round++) {
      const eol = random() < 0.3 ? "\r\n" : "\n";
      let text = "";
      for (let i = 0, n = 1 + Math.floor(random() * 20); i < n; i++) {
        if (random() < 0.2) text += `: keep-alive${eol}`;
        const json = JSON.stringify({ i, text: "é日".repeat(Math.floor(random() * 5)), nested: { deep: [round, i] } });
        // An event's data may come on several data: lines (joined with a line feed: still the same JSON).
        const cut = json.indexOf(',"nested"') + 1;
        const lines = random() < 0.3 ? [json.slice(0, cut), json.slice(cut)] : [json];
        text += `${lines.map((line) => `data: ${line}`).join(eol)}${eol}${eol}`;
      }
      if (random() < 0.5) text += `data: [DONE]${eol}${eol}data: {"after":true}${eol}${eol}`;
      const bytes = new TextEncoder().encode(text);
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + Math.floor(random() * 40);
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      const stream = () => new ReadableStream<Uint8Array>({ start: (c) => (chunks.forEach((chunk) => c.enqueue(chunk)), c.close()) });
      const ours: unknown[] = [];
      for await (const batch of readSseJson(stream())) ours.push(...batch);
      const theirs: unknown[] = [];
      for await (const item of Stream.fromSSEResponse<unknown>(new Response(stream()), new AbortController())) theirs.push(item);
      assert.deepEqual(ours, theirs, `round ${round}`);
    }
  });
});

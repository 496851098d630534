import { strict as assert } from "node:assert";
import { JsonlWriter, LineDecoder, encodeFrame, stringifyDeep, type LineSink } from "./jsonl";

/** A small deterministic PRNG so failures reproduce. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function decodeAll(chunks: (Uint8Array | string)[], maxLineChars?: number): { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  const decoder = new LineDecoder({ maxLineChars, onLine: (l) => lines.push(l), onError: (e) => errors.push(e) });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return { lines, errors };
}

function splitRandomly(bytes: Uint8Array, next: () => number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const size = 1 + Math.floor(next() * 17);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

const tricky = [
  "plain ascii",
  "line\u2028separator and paragraph\u2029separator",
  "multi-byte: é ß 中文 🙂 𝄞",
  'quotes " and backslashes \\ and tabs \t',
  "",
  "carriage\rinside",
];

describe("JSONL framing", () => {
  it("reassembles frames split at random byte boundaries, with multi-byte characters and U+2028/U+2029", () => {
    const next = random(42);
    for (let round = 0; round < 200; round++) {
      const frames = Array.from({ length: 1 + Math.floor(next() * 8) }, (_, i) => ({ i, text: tricky[Math.floor(next() * tricky.length)] }));
      const bytes = new TextEncoder().encode(frames.map(encodeFrame).join(""));
      const { lines, errors } = decodeAll(splitRandomly(bytes, next));
      assert.deepEqual(errors, []);
      assert.deepEqual(lines.map((l) => JSON.parse(l) as unknown), frames, `round ${round}`);
    }
  });

  it("splits on LF only and strips one trailing CR", () => {
    const { lines } = decodeAll(["a\r\nb\n", "c\r\r\n", "d\u2028e\n"]);
    assert.deepEqual(lines, ["a", "b", "c\r", "d\u2028e"]);
  });

  it("emits a last record without LF at the end of input", () => {
    assert.deepEqual(decodeAll(['{"x":1}\n{"y":', "2}"]).lines, ['{"x":1}', '{"y":2}']);
  });

  it("does not split a CRLF pair across chunks into two records", () => {
    assert.deepEqual(decodeAll(["one\r", "\ntwo\n"]).lines, ["one", "two"]);
  });

  it("drops an oversized line with a clear error and keeps reading", () => {
    const long = "x".repeat(5000);
    const { lines, errors } = decodeAll(["first\n", long.slice(0, 3000), long.slice(3000), "\nlast\n"], 1000);
    assert.deepEqual(lines, ["first", "last"]);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /maximum of 1000 characters/);
  });

  it("replaces invalid UTF-8 instead of failing", () => {
    const { lines } = decodeAll([new Uint8Array([0x61, 0xff, 0xfe, 0x62, 0x0a])]);
    assert.equal(lines[0], "a\ufffd\ufffdb");
  });

  it("encodes values nested deeper than the call stack (a long session's get_tree)", () => {
    let tree: { entry: { id: string }; children: unknown[] } = { entry: { id: "leaf" }, children: [] };
    for (let i = 0; i < 50_000; i++) tree = { entry: { id: `e${i}` }, children: [tree] };
    const text = encodeFrame({ type: "response", data: { tree: [tree], leafId: "leaf", skip: undefined } });
    assert.ok(text.endsWith("}\n"));
    const parsed = JSON.parse(text) as { data: { tree: { entry: { id: string } }[]; leafId: string } };
    assert.equal(parsed.data.tree[0].entry.id, "e49999");
    assert.equal(parsed.data.leafId, "leaf");
    assert.equal(stringifyDeep({ a: [1, undefined, "x\n"], b: undefined, c: { d: null } }), JSON.stringify({ a: [1, undefined, "x\n"], b: undefined, c: { d: null } }));
  });

  it("never produces a raw LF inside an encoded frame", () => {
    const encoded = encodeFrame({ text: "a\nb\r\nc\u2028" });
    assert.equal(encoded.indexOf("\n"), encoded.length - 1);
  });
});

describe("JsonlWriter", () => {
  function slowSink(capacity: number) {
    const written: string[] = [];
    let drain: (() => void) | undefined;
    let buffered = 0;
    const sink: LineSink = {
      write(text) {
        written.push(text);
        buffered += text.length;
        return buffered < capacity;
      },
      onDrain(listener) {
        drain = listener;
        return { dispose: () => (drain = undefined) };
      },
    };
    return {
      sink,
      written,
      drain() {
        buffered = 0;
        drain?.();
      },
      get waiting() {
        return drain !== undefined;
      },
    };
  }

  it("waits for drain when the sink is full and keeps order", async () => {
    const s = slowSink(20);
    const writer = new JsonlWriter(s.sink);
    const done: number[] = [];
    const writes = [0, 1, 2, 3].map((i) => writer.write({ i, pad: "xxxxxxxxxx" }).then(() => done.push(i)));
    await Promise.resolve();
    assert.equal(s.written.length, 1, "only the first record goes out before drain");
    assert.ok(s.waiting);
    s.drain();
    s.drain();
    s.drain();
    await Promise.all(writes);
    assert.deepEqual(s.written.map((t) => (JSON.parse(t) as { i: number }).i), [0, 1, 2, 3]);
    assert.deepEqual(done, [0, 1, 2, 3]);
  });

  it("refuses to queue without bound when the reader stalls", async () => {
    const s = slowSink(1);
    const writer = new JsonlWriter(s.sink, 100);
    await writer.write({ first: true });
    const errors: string[] = [];
    const writes = Array.from({ length: 10 }, () => writer.write({ pad: "y".repeat(30) }).catch((e: Error) => errors.push(e.message)));
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(errors.length >= 7, `${errors.length} writes refused`);
    assert.match(errors[0], /write queue is full/);
    writer.close();
    await Promise.all(writes);
  });

  it("post: keeps order with writes through a full sink, drops what no queue can take, nothing after close", () => {
    const s = slowSink(20);
    const writer = new JsonlWriter(s.sink, 60);
    writer.post({ i: 0, pad: "xxxxxxxxxx" });
    void writer.write({ i: 1 });
    writer.post({ i: 2 });
    writer.post({ i: 3, pad: "z".repeat(80) });
    assert.equal(s.written.length, 1, "the rest waits for drain");
    s.drain();
    s.drain();
    assert.deepEqual(s.written.map((t) => (JSON.parse(t) as { i: number }).i), [0, 1, 2], "the record too large for the queue was dropped");
    writer.close();
    writer.post({ i: 4 });
    assert.equal(s.written.length, 3);
  });

  it("drains a long queue in linear time (a 4 MB tool call queues ~200,000 deltas behind a slow reader)", () => {
    const s = slowSink(16 * 1024);
    const writer = new JsonlWriter(s.sink);
    writer.post({ first: true, pad: "x".repeat(20_000) });
    const count = 300_000;
    for (let i = 0; i < count; i++) writer.post({ i });
    const t0 = performance.now();
    while (s.waiting) s.drain();
    const ms = performance.now() - t0;
    assert.equal(s.written.length, count + 1);
    assert.deepEqual(JSON.parse(s.written.at(-1)!), { i: count - 1 });
    // Taking from the front of the array one by one was quadratic: tens of seconds here.
    assert.ok(ms < 3000, `took ${ms.toFixed(0)} ms`);
  });

  it("rejects queued writes on close", async () => {
    const s = slowSink(1);
    const writer = new JsonlWriter(s.sink);
    await writer.write({ a: 1 });
    const pending = writer.write({ b: 2 });
    writer.close("gone");
    await assert.rejects(pending, /gone/);
    await assert.rejects(writer.write({ c: 3 }), /closed/);
  });
});

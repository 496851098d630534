import { strict as assert } from "node:assert";
import { Writable } from "node:stream";
import { batchedOutput } from "./batched-output";

describe("pool: its stdout written once per turn of the event loop", () => {
  /** A pipe's writable end; with `held`, each write completes only when the test says so (a reader that has not read yet). */
  const sink = (options: { highWaterMark?: number; held?: boolean } = {}) => {
    const writes: string[] = [];
    const pending: (() => void)[] = [];
    const output = new Writable({
      highWaterMark: options.highWaterMark ?? 16_384,
      write: (chunk: Buffer, _encoding, done) => {
        writes.push(chunk.toString("utf8"));
        if (options.held) pending.push(() => done());
        else done();
      },
    });
    return { output, writes, complete: () => pending.splice(0).forEach((done) => done()) };
  };

  it("sends what every session wrote in one turn as one write, in order (a write per chunk made the extension host read a stream in 10x the reads of processes of their own)", async () => {
    const { output, writes } = sink();
    const out = batchedOutput(output);
    out.write(Buffer.from("s1 a\n"));
    out.write(Buffer.from('! {"type":"exit","session":"s2"}\n'));
    out.write(Buffer.from("s1 b\n"));
    assert.deepEqual(writes, []);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, ['s1 a\n! {"type":"exit","session":"s2"}\ns1 b\n']);
    out.write(Buffer.from("s1 c\n"));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, ['s1 a\n! {"type":"exit","session":"s2"}\ns1 b\n', "s1 c\n"]);
  });

  it("writes what is queued at once when flushed (the pool's last frames before it exits)", () => {
    const { output, writes } = sink();
    const out = batchedOutput(output, () => undefined);
    out.write(Buffer.from("s1 last\n"));
    out.flush();
    assert.deepEqual(writes, ["s1 last\n"]);
  });

  it("says when the output is full, so that the sessions wait for its drain", async () => {
    const { output, complete } = sink({ highWaterMark: 4, held: true });
    const out = batchedOutput(output);
    assert.equal(out.write(Buffer.from("s1 12345678\n")), true);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(out.write(Buffer.from("s1 more\n")), false);
    const drained = new Promise((resolve) => output.once("drain", resolve));
    complete();
    await new Promise((resolve) => setImmediate(resolve));
    complete();
    await drained;
  });
});

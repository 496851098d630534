import { strict as assert } from "node:assert";
import { PassThrough } from "node:stream";
import { PacedLines } from "./paced-lines";
import { ProcessTransport } from "./process-transport";
import { streamTransport } from "./stream-transport";

/** Holds the thread for `ms`, as a costly record's handling does. */
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* the handler's work */
  }
};

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("paced lines: a read's records handed on a few milliseconds at a time", () => {
  it("hands on a read's first lines in its own task and the rest over later turns, in order, with other work between and the stream paused", async () => {
    const input = new PassThrough();
    const got: string[] = [];
    // How many lines each stretch without a turn of the event loop handled.
    const perStretch: number[] = [0];
    let pausedSeen = false;
    const lines = new PacedLines(input, {
      budgetMs: 8,
      onLine: (line) => {
        got.push(line);
        perStretch[perStretch.length - 1]!++;
        pausedSeen ||= input.isPaused();
        busy(2);
      },
    });
    // Another extension's work, queued each turn: it must run between our stretches.
    const other = () => {
      if (perStretch[perStretch.length - 1]! > 0) perStretch.push(0);
      if (got.length < 40) setImmediate(other);
    };
    setImmediate(other);
    input.write(Array.from({ length: 40 }, (_, i) => `{"i":${i}}\n`).join(""));
    while (got.length < 40) await turn();
    assert.deepEqual(got, Array.from({ length: 40 }, (_, i) => `{"i":${i}}`));
    // Each line holds the thread 2 ms: the budget of 8 is spent after 4 (fewer when the machine is busy).
    assert.ok(Math.max(...perStretch) <= 4, `lines handled without a turn: ${perStretch.join(", ")}`);
    assert.ok(pausedSeen, "the stream was paused while lines waited");
    await turn();
    assert.equal(input.isPaused(), false, "the stream flows again once every line was handed on");
    lines.dispose();
  });

  it("shares one budget per turn among readers and reads: lines read in a turn whose budget is spent wait for the next", async () => {
    const order: string[] = [];
    const reader = (name: string) => {
      const input = new PassThrough();
      new PacedLines(input, { budgetMs: 8, onLine: (line) => (order.push(`${name}${line}`), busy(3)) });
      return input;
    };
    const [a, b] = [reader("a"), reader("b")];
    await turn();
    // Two pipes ready together (as several agents' last events are): read in one turn.
    a.emit("data", Buffer.from("1\n2\n3\n"));
    order.push("|");
    b.emit("data", Buffer.from("1\n2\n"));
    order.push("|");
    while (order.filter((o) => o !== "|").length < 5) await turn();
    assert.deepEqual(order, ["a1", "a2", "a3", "|", "|", "b1", "b2"], "b's lines wait for the next turn: a spent the budget");
  });

  it("hands on every line of a small read at once, as an unpaced reader did", () => {
    const input = new PassThrough();
    const got: string[] = [];
    new PacedLines(input, { onLine: (line) => got.push(line) });
    input.emit("data", Buffer.from('{"a":1}\n{"b":2}\n{"c"'));
    assert.deepEqual(got, ['{"a":1}', '{"b":2}']);
  });

  it("lets the stream flow to its end once disposed while lines waited", async () => {
    const input = new PassThrough();
    const lines = new PacedLines(input, { budgetMs: 1, onLine: () => busy(2) });
    input.write("1\n2\n3\n");
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(input.isPaused(), true, "paused while lines wait");
    lines.dispose();
    const ended = new Promise<void>((resolve) => input.once("end", () => resolve()));
    input.end("4\n");
    await ended;
  });

  it("ends after the last line, even one without LF, and runs what waits for the lines after them", async () => {
    const input = new PassThrough();
    const events: string[] = [];
    const lines = new PacedLines(input, { budgetMs: 1, onLine: (line) => (events.push(line), busy(1)), onEnd: () => events.push("end") });
    input.end(`${Array.from({ length: 10 }, (_, i) => `l${i}`).join("\n")}\nlast`);
    lines.afterLines(() => events.push("after"));
    while (!events.includes("end")) await turn();
    assert.deepEqual(events, [...Array.from({ length: 10 }, (_, i) => `l${i}`), "last", "after", "end"]);
  });

  it("a stream transport lets other work run while one read's records are handled (they took the whole read's time in one task before)", async () => {
    const input = new PassThrough();
    const transport = streamTransport(input, new PassThrough());
    let frames = 0;
    transport.onFrame(() => (frames++, busy(2)));
    let othersRan = 0;
    const other = () => (othersRan++, frames < 40 && setImmediate(other));
    setImmediate(other);
    input.write(Array.from({ length: 40 }, (_, i) => `{"type":"n","i":${i}}\n`).join(""));
    while (frames < 40) await turn();
    assert.ok(othersRan >= 8, `other work ran ${othersRan} times during 80 ms of handling one read`);
    transport.dispose();
  });

  it("a process transport hands on every record its agent wrote before it reports the exit, however slow their handling", async () => {
    const script = 'for (let i = 0; i < 3000; i++) process.stdout.write(JSON.stringify({ type: "n", i }) + "\\n")';
    const transport = ProcessTransport.spawn(process.execPath, ["-e", script]);
    const seen: number[] = [];
    transport.onFrame((frame) => {
      seen.push((frame as { i: number }).i);
      busy(0.02);
    });
    const closed = await new Promise<number>((resolve) => transport.onClose(() => resolve(seen.length)));
    assert.equal(closed, 3000, "every record was handed on before the close");
    assert.deepEqual(seen.slice(0, 3), [0, 1, 2]);
    assert.equal(seen[2999], 2999);
    transport.dispose();
  });
});

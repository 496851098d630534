import { strict as assert } from "node:assert";
import { PassThrough } from "node:stream";
import type * as Acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { pacedInput } from "./paced-input";

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* a message's handling */
  }
};
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const notice = (i: number) => `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { i } })}\n`;

/** The SDK's NDJSON reader over the paced output, read as its receive loop reads: a message, its handling, the next. */
async function readAll(output: PassThrough, handle: (message: unknown) => void): Promise<void> {
  const acp = (await import("@agentclientprotocol/sdk")) as typeof Acp;
  const { readable } = acp.ndJsonStream(new WritableStream<Uint8Array>(), pacedInput(output));
  const reader = readable.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    handle(value);
  }
}

describe("ACP: an agent's output paced for the SDK", () => {
  it("lets other work run while one read's messages are handled, in order, and nothing is lost across chunks", async () => {
    const output = new PassThrough();
    const got: number[] = [];
    const perStretch: number[] = [0];
    const reading = readAll(output, (message) => {
      got.push((message as { params: { i: number } }).params.i);
      perStretch[perStretch.length - 1]!++;
      busy(2);
    });
    const other = () => {
      if (perStretch[perStretch.length - 1]! > 0) perStretch.push(0);
      if (got.length < 41) setImmediate(other);
    };
    setImmediate(other);
    const text = Array.from({ length: 40 }, (_, i) => notice(i)).join("");
    output.write(text.slice(0, 7)); // a record's start alone: nothing to read yet, the stream stays open
    await turn();
    output.write(text.slice(7));
    output.end(notice(40).trimEnd()); // the last without LF
    await reading;
    assert.deepEqual(got, Array.from({ length: 41 }, (_, i) => i));
    // 2 ms each: the budget of 8 is spent after 4 (one more when the first piece was read before its handling was timed).
    assert.ok(Math.max(...perStretch) <= 5, `messages handled without a turn: ${perStretch.join(", ")}`);
  });

  it("lets the agent's output flow to its end once the SDK cancelled its reading (an agent blocked on a full pipe could not exit)", async () => {
    const output = new PassThrough();
    const reader = pacedInput(output).getReader();
    output.write(notice(1));
    await reader.read();
    await reader.cancel();
    const ended = new Promise<void>((resolve) => output.once("end", () => resolve()));
    output.write(notice(2));
    output.end(notice(3));
    await ended;
    assert.equal(output.isPaused(), false);
  });
});

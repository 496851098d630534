/**
 * The ACP SDK's output as a WritableStream over a Node stream, for the per-delta path: a write
 * settles at once unless the stream is over its high-water mark (then at 'drain'), and writes made
 * in the same tick leave in one syscall (cork until the next turn of the event loop). Node's
 * Writable.toWeb waits for each chunk's flush before taking the next: one notification a round
 * trip through the event loop, which doubled the host's time for a long streamed reply.
 */
import type { Writable } from "node:stream";

export function batchedWritable(output: Writable): WritableStream<Uint8Array> {
  let corked = false;
  return new WritableStream<Uint8Array>({
    write(chunk) {
      if (!corked) {
        corked = true;
        output.cork();
        setImmediate(() => {
          corked = false;
          output.uncork();
        });
      }
      if (output.write(chunk)) return;
      return new Promise<void>((resolve) => output.once("drain", resolve));
    },
    close() {
      return new Promise<void>((resolve) => output.end(resolve));
    },
  });
}

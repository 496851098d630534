import type { Writable } from "node:stream";

export interface BatchedOutput {
  /** Queues bytes for the next write; false when the output is full (the caller waits for its drain). */
  write(bytes: Buffer): boolean;
  /** Writes what is queued now (before the pool ends). */
  flush(): void;
}

/**
 * The pool's stdout, written once per turn of the event loop: what its sessions' workers wrote in
 * that turn (lines and control frames, in order) goes out in one write. With a write per worker
 * chunk, eight sessions streaming made 10x the writes (and the extension host's reads) of eight
 * processes of their own, each of which writes its frames once per turn.
 */
export function batchedOutput(output: Writable, schedule: (flush: () => void) => void = setImmediate): BatchedOutput {
  let queued: Buffer[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (queued.length === 0) return;
    const bytes = queued.length === 1 ? queued[0]! : Buffer.concat(queued);
    queued = [];
    output.write(bytes);
  };
  return {
    write(bytes) {
      queued.push(bytes);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
      return !output.writableNeedDrain;
    },
    flush,
  };
}

import type { Readable, Writable } from "node:stream";
import { DEFAULT_MAX_LINE_CHARS, LineDecoder, parseJsonLine } from "../../shared/jsonl";
import { POOL_CONTROL_PREFIX, type PoolInbound } from "../../shared/protocol/pool";
import { checkPoolControl } from "../../shared/protocol/pool-check";
import { batchedOutput } from "./batched-output";
import { PoolSession, type SessionOutput } from "./pool-session";

/**
 * `agent-host --pool`: several sessions of the bundled host in one process, each in a worker
 * thread (pool-session.ts). Its stdin and stdout carry every session's lines, `<session> <line>`,
 * and control frames, `! <json>` (shared/protocol/pool.ts). The pool ends once its input has
 * ended (which ends every session's input) and its last session has exited.
 */
export interface Pool {
  /** Resolves once the input has ended and the last session has exited. */
  done: Promise<void>;
  /** Ends every session as a signal ends a host process (their exit handlers run), then resolves. */
  stop(code: number): Promise<void>;
}

export function runPool(input: Readable, output: Writable, workerScript: string, log: (message: string) => void): Pool {
  const sessions = new Map<string, PoolSession>();
  let inputEnded = false;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  // Every session's lines and control frames, in order, in one write per turn of the event loop.
  const out = batchedOutput(output);
  const settleIfDone = () => {
    if (!inputEnded || sessions.size > 0) return;
    out.flush();
    finish();
  };

  const drainWaiters: (() => void)[] = [];
  output.on("drain", () => drainWaiters.splice(0).forEach((resume) => resume()));
  const sessionOutput: SessionOutput = {
    write: (bytes) => out.write(bytes),
    control: (frame) => out.write(Buffer.from(`${POOL_CONTROL_PREFIX}${JSON.stringify(frame)}\n`)),
    whenDrained: (resume) => drainWaiters.push(resume),
  };

  const control = (frame: PoolInbound) => {
    const session = sessions.get(frame.session);
    if (frame.type === "open") {
      if (session) return log(`pool: session ${frame.session} is already open`);
      const opened = new PoolSession(frame, workerScript, sessionOutput, () => {
        sessions.delete(frame.session);
        settleIfDone();
      });
      sessions.set(frame.session, opened);
      if (inputEnded) opened.endInput();
      return;
    }
    if (!session) return;
    if (frame.type === "end") session.endInput();
    else session.kill();
  };

  const onLine = (line: string) => {
    if (line.startsWith(POOL_CONTROL_PREFIX)) {
      const parsed = parseJsonLine(line.slice(POOL_CONTROL_PREFIX.length));
      const checked = parsed.ok ? checkPoolControl("in", parsed.value) : { ok: false as const, error: parsed.error };
      if (!checked.ok) return log(`pool: control frame refused: ${checked.error}`);
      return control(checked.frame);
    }
    // The hot path: the id cut off, the rest handed on as it is. Never paused for one session
    // (pool-session.ts `write`): a worker that does not read would hold up every other session's
    // lines and the control frames, its own kill among them.
    const space = line.indexOf(" ");
    const session = space > 0 ? sessions.get(line.slice(0, space)) : undefined;
    if (!session) return line.trim() && log(`pool: a line for no open session was dropped`);
    session.write(line.slice(space + 1));
  };

  const decoder = new LineDecoder({ maxLineChars: DEFAULT_MAX_LINE_CHARS, onLine, onError: (error) => log(`pool: ${error}`) });
  input.on("data", (chunk: Buffer) => decoder.push(chunk));
  input.on("end", () => {
    decoder.end();
    inputEnded = true;
    for (const session of sessions.values()) session.endInput();
    settleIfDone();
  });
  return { done, stop: async (code) => void (await Promise.all([...sessions.values()].map((session) => session.stop(code)))) };
}

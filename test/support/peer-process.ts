/**
 * A minimal raw JSONL client for a spawned peer (independent of the project's own transport,
 * so tests and the smoke check can look at the wire as the agent writes it).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { peerLaunch, type PeerKind, type PeerLaunch, type PeerLaunchOptions } from "./peers";

export type Frame = { type?: string; id?: string; [key: string]: unknown };

export interface PeerProcess {
  readonly launch: PeerLaunch;
  readonly child: ChildProcessWithoutNullStreams;
  /** Every stdout record, parsed, in order (non-JSON lines become `{type:"<non-json>", line}`). */
  readonly frames: Frame[];
  /** Arrival time of each frame, in ms since spawn (same indexes as `frames`). */
  readonly frameTimes: number[];
  readonly stderr: () => string;
  /** Milliseconds since spawn. */
  readonly elapsed: () => number;
  send(frame: Record<string, unknown>): void;
  /** Writes a raw line (a LF is appended). */
  sendRaw(line: string): void;
  /** Resolves with the first frame at index >= `from` that matches. */
  waitFor(match: (f: Frame) => boolean, timeoutMs?: number, from?: number): Promise<Frame>;
  /** Closes stdin, waits for exit (kills after `graceMs`), then cleans the temp folders. */
  stop(graceMs?: number): Promise<number | null>;
}

export function startPeer(kind: PeerKind, options: PeerLaunchOptions): PeerProcess {
  const launch = peerLaunch(kind, options);
  const t0 = Date.now();
  const child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ["pipe", "pipe", "pipe"] });
  const frames: Frame[] = [];
  const frameTimes: number[] = [];
  const listeners = new Set<() => void>();
  let err = "";
  let buffer = "";
  let exitCode: number | null | undefined;
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d: string) => (err += d));
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d: string) => {
    buffer += d;
    let lf: number;
    while ((lf = buffer.indexOf("\n")) !== -1) {
      let line = buffer.slice(0, lf);
      buffer = buffer.slice(lf + 1);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (!line) continue;
      frameTimes.push(Date.now() - t0);
      try {
        frames.push(JSON.parse(line) as Frame);
      } catch {
        frames.push({ type: "<non-json>", line });
      }
    }
    for (const l of [...listeners]) l();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      exitCode = code;
      for (const l of [...listeners]) l();
      resolve(code);
    }),
  );
  child.on("error", (e) => (err += `\n[spawn error] ${e.message}`));

  const peer: PeerProcess = {
    launch,
    child,
    frames,
    frameTimes,
    stderr: () => err,
    elapsed: () => Date.now() - t0,
    send(frame) {
      child.stdin.write(JSON.stringify(frame) + "\n");
    },
    sendRaw(line) {
      child.stdin.write(line + "\n");
    },
    waitFor(match, timeoutMs = 20_000, from = 0) {
      return new Promise<Frame>((resolve, reject) => {
        const check = (): void => {
          for (let i = from; i < frames.length; i++) {
            const f = frames[i]!;
            if (match(f)) {
              done();
              resolve(f);
              return;
            }
          }
          if (exitCode !== undefined) {
            done();
            reject(new Error(`${kind} exited (${exitCode}) before the awaited frame; stderr:\n${err.slice(-2000)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${kind}: no matching frame within ${timeoutMs} ms; last frames: ${JSON.stringify(frames.slice(-3)).slice(0, 1500)}; stderr: ${err.slice(-1500)}`));
        }, timeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async stop(graceMs = 3000) {
      if (exitCode === undefined) {
        child.stdin.end();
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        await exited;
        clearTimeout(timer);
      }
      launch.cleanup();
      return exitCode ?? null;
    },
  };
  return peer;
}

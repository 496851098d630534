/**
 * A CPU profile of the extension host (our extension's process, shared with every other
 * extension), taken from outside it: SIGUSR1 opens Node's inspector there, and the Profiler
 * domain is driven over the inspector's WebSocket. Used when $BENCH_HOST_PROFILE_DIR is set: the
 * profile goes there as `<name>.cpuprofile` (Chrome DevTools opens it; `npx tsx
 * bench/editor/profile-summary.ts <file>` prints where the time went).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import WebSocket from "ws";

const INSPECTOR_PORT = 9229;

interface InspectorTarget {
  webSocketDebuggerUrl: string;
}

async function inspectorUrl(timeoutMs: number): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const targets = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)).json()) as InspectorTarget[];
      const url = targets[0]?.webSocketDebuggerUrl;
      if (url) return url;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error(`no inspector on port ${INSPECTOR_PORT} after SIGUSR1`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A connection to the inspector: one request at a time is all the profiler needs. */
async function connect(url: string): Promise<{ send(method: string, params?: object): Promise<unknown>; close(): void }> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let next = 0;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  socket.on("message", (data: WebSocket.RawData) => {
    const text = Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data as ArrayBuffer).toString("utf8");
    const reply = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
    const pending = reply.id === undefined ? undefined : waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id!);
    if (reply.error) pending.reject(new Error(reply.error.message));
    else pending.resolve(reply.result);
  });
  return {
    send(method, params = {}) {
      const id = ++next;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
    close: () => socket.close(),
  };
}

/** Profiles `pid` (a Node process) while `work` runs, when $BENCH_HOST_PROFILE_DIR is set. */
export async function hostProfiled<T>(pid: number, name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_HOST_PROFILE_DIR;
  if (!dir) return work();
  process.kill(pid, "SIGUSR1");
  const inspector = await connect(await inspectorUrl(10_000));
  try {
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: 250 });
    await inspector.send("Profiler.start");
    const result = await work();
    const { profile } = (await inspector.send("Profiler.stop")) as { profile: unknown };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    return result;
  } finally {
    inspector.close();
  }
}

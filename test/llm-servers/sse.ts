/**
 * What the scripted LLM servers share: an HTTP server on 127.0.0.1 (random port) that records
 * each request, answers it with the next scripted turn, and writes server-sent events.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  /** 0-based, in arrival order (only requests on the server's route). */
  index: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
  /** True when the client closed the connection before the response ended. */
  aborted: boolean;
  /** True once the response ended or the client went away. */
  done: boolean;
}

export interface ScriptedServer<Turn> {
  /** e.g. "http://127.0.0.1:41234/v1" */
  readonly baseUrl: string;
  readonly requests: readonly RecordedRequest[];
  enqueue(...turns: Turn[]): void;
  /** Resolves when request `index` has ended or its client went away. */
  waitForDone(index: number, timeoutMs?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/** An open SSE response. Writes resolve once flushed; after the client left they do nothing. */
export class SseWriter {
  private closedByClient = false;

  constructor(private readonly res: http.ServerResponse) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    res.on("close", () => (this.closedByClient = !res.writableEnded));
  }

  get clientGone(): boolean {
    return this.closedByClient || this.res.destroyed;
  }

  /** One event: `event: <name>` (when given) and `data: <json>`. */
  send(data: unknown, event?: string): Promise<void> {
    return this.raw(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  }

  raw(text: string): Promise<void> {
    if (this.clientGone) return Promise.resolve();
    return new Promise((resolve) => this.res.write(text, () => resolve()));
  }

  end(): void {
    if (!this.clientGone) this.res.end();
  }

  /** Cuts the connection mid-stream, as a crashed server or a proxy timeout would. */
  drop(): void {
    this.res.socket?.destroy();
  }

  /** Keeps the response open until the client goes away. */
  hang(): Promise<void> {
    return new Promise((resolve) => {
      if (this.clientGone) return resolve();
      this.res.on("close", () => resolve());
    });
  }
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": typeof body === "string" ? "text/plain" : "application/json", ...headers });
  res.end(text);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface ScriptedServerOptions<Turn> {
  /** Requests on this path (e.g. /\/chat\/completions$/) are scripted; others get 404. */
  route: RegExp;
  /** Used when the script has run out. */
  defaultTurn: Turn;
  respond(turn: Turn, request: RecordedRequest, res: http.ServerResponse): Promise<void>;
}

export async function startScriptedServer<Turn>(options: ScriptedServerOptions<Turn>): Promise<ScriptedServer<Turn>> {
  const script: Turn[] = [];
  const requests: RecordedRequest[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0];
      if (req.method !== "POST" || !options.route.test(path)) return sendJson(res, 404, { error: { message: `no route ${req.method} ${path}` } });
      const request: RecordedRequest = {
        index: requests.length,
        method: req.method,
        path,
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>,
        aborted: false,
        done: false,
      };
      requests.push(request);
      res.on("close", () => {
        request.aborted = !res.writableEnded;
        request.done = true;
        notify();
      });
      const turn = script.length > 0 ? (script.shift() as Turn) : options.defaultTurn;
      options.respond(turn, request, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
        else res.socket?.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...turns) => void script.push(...turns),
    waitForDone(index, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const request = requests[index];
          if (request?.done) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(request);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`request ${index} not done after ${timeoutMs} ms`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Splits `text` into `n` pieces of similar length (fewer when it is short). */
export function splitInto(text: string, n: number): string[] {
  if (!text) return [""];
  const size = Math.ceil(text.length / Math.max(1, Math.min(n, text.length)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

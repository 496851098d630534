/**
 * What the Anthropic and Google wire servers share: an HTTP server on 127.0.0.1 (random port)
 * that records every request and hands it to a handler, plus small write helpers.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages`. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The JSON body (undefined when it was not JSON). */
  body: unknown;
  /** Resolves when the client has gone away (response finished or connection closed). */
  closed: Promise<void>;
}

export interface WireServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type WireHandler = (request: RecordedRequest, res: http.ServerResponse) => Promise<void>;

export async function startWireServer(handle: WireHandler): Promise<WireServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      const closed = new Promise<void>((resolve) => res.on("close", () => resolve()));
      const recorded: RecordedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, closed };
      requests.push(recorded);
      handle(recorded, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes one piece of the body and waits until it is handed to the socket (false if the client left). */
export function write(res: http.ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  return new Promise((resolve) => res.write(text, (error) => resolve(!error)));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Keeps the response open until the client goes away. */
export function hang(request: RecordedRequest): Promise<void> {
  return request.closed;
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/**
 * The HTTP side shared by the scripted model servers (mock-google.ts, mock-anthropic.ts): a
 * loopback server on a random port that reads each request's JSON body, records it (with whether
 * the client went away before the answer ended) and hands it to the server's own `answer`.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedRequest<Body> {
  index: number;
  /** The URL's path, without the query. */
  path: string;
  /** The JSON body; `{}` when there is none or it is not JSON. */
  body: Body;
  /** The request's headers (Node's: names in lower case). */
  headers: Record<string, string | string[] | undefined>;
  aborted: boolean;
  done: boolean;
}

export interface ScriptedServer<R> {
  readonly baseUrl: string;
  readonly requests: readonly R[];
  close(): Promise<void>;
}

export async function startScriptedServer<Body, R extends ScriptedRequest<Body>>(
  toRequest: (base: ScriptedRequest<Body>) => R,
  answer: (request: R, res: http.ServerResponse) => void,
): Promise<ScriptedServer<R>> {
  const requests: R[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      let body = {} as Body;
      try {
        body = JSON.parse(Buffer.concat(parts).toString("utf8") || "{}") as Body;
      } catch {
        /* answered as a request with no body */
      }
      const request = toRequest({ index: requests.length, path: (req.url ?? "/").split("?")[0]!, body, headers: req.headers, aborted: false, done: false });
      requests.push(request);
      res.on("close", () => {
        if (!res.writableFinished) request.aborted = true;
        request.done = true;
      });
      answer(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

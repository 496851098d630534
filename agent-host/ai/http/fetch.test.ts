import * as assert from "node:assert/strict";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { httpFetch } from "./fetch";
import { bodyChunks } from "./response";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local server whose handler gets each request with its body read; counts connections. */
async function serve(handler: (seen: Seen, res: http.ServerResponse) => void): Promise<{ url: string; seen: Seen[]; connections: () => number; closed: Promise<void>[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const closed: Promise<void>[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      const s = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(s);
      handler(s, res);
    });
  });
  server.on("connection", (socket) => {
    connections++;
    closed.push(new Promise((resolve) => socket.on("close", () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    connections: () => connections,
    closed,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

type FetchError = Error & { cause?: { code?: string } };

async function rejection(promise: Promise<unknown>): Promise<FetchError> {
  try {
    await promise;
  } catch (error) {
    return error as FetchError;
  }
  assert.fail("expected a rejection");
}

describe("httpFetch", () => {
  it("sends the method, headers and string body, and returns status, headers and body", async () => {
    const server = await serve((_, res) => {
      res.writeHead(201, "Made", { "content-type": "application/json", "x-request-id": "r1" });
      res.end('{"ok":true}');
    });
    try {
      const headers = new Headers({ "content-type": "application/json", authorization: "Bearer k" });
      const response = await httpFetch(`${server.url}/v1/chat`, { method: "post", headers, body: '{"a":"é"}' });
      assert.equal(response.status, 201);
      assert.equal(response.statusText, "Made");
      assert.equal(response.ok, true);
      assert.equal(response.headers.get("x-request-id"), "r1");
      assert.deepEqual(await response.json(), { ok: true });
      const [seen] = server.seen;
      assert.equal(seen?.method, "POST");
      assert.equal(seen?.url, "/v1/chat");
      assert.equal(seen?.headers.authorization, "Bearer k");
      assert.equal(seen?.headers["content-length"], String(Buffer.byteLength('{"a":"é"}')));
      assert.equal(seen?.body, '{"a":"é"}');
    } finally {
      await server.close();
    }
  });

  it("streams the body as it arrives and reuses the connection for the next request", async () => {
    let finish: (() => void) | undefined;
    const server = await serve((seen, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (seen.url === "/slow") {
        res.write("data: 1\n\n");
        finish = () => res.end("data: 2\n\n");
      } else res.end("done");
    });
    try {
      const response = await httpFetch(`${server.url}/slow`, { method: "POST", body: "{}" });
      const reader = bodyChunks(response.body!)[Symbol.asyncIterator]();
      const first = await reader.next();
      assert.equal(new TextDecoder().decode(first.value), "data: 1\n\n", "the first event arrives before the server ends the body");
      finish?.();
      let rest = "";
      for (let r = await reader.next(); !r.done; r = await reader.next()) rest += new TextDecoder().decode(r.value);
      assert.equal(rest, "data: 2\n\n");
      assert.equal(await (await httpFetch(`${server.url}/again`, { method: "POST", body: "{}" })).text(), "done");
      assert.equal(server.connections(), 1, "keep-alive: one connection for both requests");
    } finally {
      await server.close();
    }
  });

  it("keeps the connection when the reader stops at the stream's end marker, and cuts it when it stops midway", async () => {
    const server = await serve((seen, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (seen.url === "/endless") res.write("data: 1\n\n");
      else res.end("data: [DONE]\n\n");
    });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await httpFetch(`${server.url}/sse`, { method: "POST", body: "{}" });
        for await (const chunk of bodyChunks(response.body!)) if (new TextDecoder().decode(chunk).includes("[DONE]")) break;
      }
      assert.equal(server.connections(), 1, "one keep-alive connection for three streams read up to [DONE]");
      const endless = await httpFetch(`${server.url}/endless`, { method: "POST", body: "{}" });
      for await (const _ of bodyChunks(endless.body!)) break;
      await Promise.race(server.closed);
      assert.equal(server.connections(), 1);
    } finally {
      await server.close();
    }
  });

  it("decodes a gzip body the server sent unasked, and asks for identity", async () => {
    const server = await serve((_, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(gzipSync("compressed hello"));
    });
    try {
      const response = await httpFetch(server.url, {});
      assert.equal(await response.text(), "compressed hello");
      assert.equal(server.seen[0]?.headers["accept-encoding"], "identity");
    } finally {
      await server.close();
    }
  });

  it("follows redirects: 307 keeps method and body, 303 turns into GET; another origin gets no authorization", async () => {
    const other = await serve((_, res) => res.end("other"));
    const server = await serve((seen, res) => {
      if (seen.url === "/307") res.writeHead(307, { location: "/target" }).end();
      else if (seen.url === "/303") res.writeHead(303, { location: "/target" }).end();
      else if (seen.url === "/away") res.writeHead(302, { location: `${other.url}/x` }).end();
      else res.end(`${seen.method} ${seen.body}`);
    });
    try {
      const init = { method: "POST", body: "payload", headers: { authorization: "Bearer k" } };
      assert.equal(await (await httpFetch(`${server.url}/307`, init)).text(), "POST payload");
      assert.equal(await (await httpFetch(`${server.url}/303`, init)).text(), "GET ");
      const away = await httpFetch(`${server.url}/away`, init);
      assert.equal(await away.text(), "other");
      assert.equal(away.url, `${other.url}/x`);
      assert.equal(other.seen[0]?.headers.authorization, undefined);
      assert.equal(server.seen.find((s) => s.url === "/target")?.headers.authorization, "Bearer k");
    } finally {
      await server.close();
      await other.close();
    }
  });

  it("rejects with an AbortError when aborted before the response or while the body streams, and closes the connection", async () => {
    const server = await serve((seen, res) => {
      if (seen.url === "/never") return;
      res.writeHead(200);
      res.write("part");
    });
    try {
      const early = new AbortController();
      const pending = httpFetch(`${server.url}/never`, { signal: early.signal });
      setTimeout(() => early.abort(), 20);
      assert.equal((await rejection(pending)).name, "AbortError");

      const late = new AbortController();
      const response = await httpFetch(`${server.url}/part`, { signal: late.signal });
      const reader = bodyChunks(response.body!)[Symbol.asyncIterator]();
      await reader.next();
      late.abort();
      assert.equal((await rejection(reader.next())).name, "AbortError");
      await Promise.all(server.closed);

      const before = new AbortController();
      before.abort();
      assert.equal((await rejection(httpFetch(server.url, { signal: before.signal }))).name, "AbortError");
    } finally {
      await server.close();
    }
  });

  it("fails as the built-in fetch does: 'fetch failed' with the cause, 'terminated' when the body breaks off", async () => {
    const refused = await rejection(httpFetch("http://127.0.0.1:1/", {}));
    assert.ok(refused instanceof TypeError);
    assert.equal(refused.message, "fetch failed");
    assert.equal(refused.cause?.code, "ECONNREFUSED");

    const server = await serve((_, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("only part");
      setTimeout(() => res.destroy(), 10);
    });
    try {
      const response = await httpFetch(server.url, {});
      const broken = await rejection(response.text());
      assert.ok(broken instanceof TypeError);
      assert.equal(broken.message, "terminated");
    } finally {
      await server.close();
    }
  });

  it("gives a null body for 204, and hands bodies it does not handle to the built-in fetch", async () => {
    const server = await serve((seen, res) => (seen.url === "/empty" ? res.writeHead(204).end() : res.end(`got ${seen.body}`)));
    try {
      const empty = await httpFetch(`${server.url}/empty`, { method: "DELETE" });
      assert.equal(empty.status, 204);
      assert.equal(empty.body, null);
      const form = await httpFetch(server.url, { method: "POST", body: new URLSearchParams({ a: "1" }) });
      assert.equal(await form.text(), "got a=1");
    } finally {
      await server.close();
    }
  });
});

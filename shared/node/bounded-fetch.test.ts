import * as assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { collectEvery } from "../../test/support/gc-pressure";
import { boundedFetch } from "./bounded-fetch";

/** How a fetch ends within `withinMs` while the collector runs every 20 ms: its error, or "still waiting". */
async function endUnderCollection(call: () => Promise<Response>, withinMs: number): Promise<string> {
  const stopCollecting = collectEvery(20);
  let limit: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      call().then(
        (r) => `answered ${r.status}`,
        (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
      ),
      new Promise<string>((resolve) => (limit = setTimeout(() => resolve("still waiting"), withinMs))),
    ]);
  } finally {
    stopCollecting();
    clearTimeout(limit);
  }
}

describe("boundedFetch (a time limit that garbage collection cannot lose)", function () {
  this.timeout(10_000);
  let server: Server;
  let url: string;
  let bodyStalls = false;
  before(async () => {
    // Answers nothing, or only the headers of a body that never ends.
    server = createServer((_req, res) => {
      if (bodyStalls) res.writeHead(200, { "content-type": "application/json" }).write("{");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
  });
  afterEach(() => (bodyStalls = false));
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it("a server that never answers: the request ends at its limit while the collector runs", async () => {
    const outcome = await endUnderCollection(() => boundedFetch(fetch, 300, new AbortController().signal)(url, { method: "POST", body: "x" }), 3_000);
    assert.match(outcome, /^TimeoutError: no answer within/);
  });

  it("a body that never ends: reading it ends at the same limit", async () => {
    bodyStalls = true;
    const outcome = await endUnderCollection(async () => {
      const response = await boundedFetch(fetch, 300)(url);
      await response.text();
      return response;
    }, 3_000);
    assert.match(outcome, /TimeoutError|aborted/i);
  });

  it("the caller's signal, the request's own and the outer one each end it at once, with their reason", async () => {
    const outer = new AbortController();
    const pending = boundedFetch(fetch, 60_000, outer.signal)(url);
    outer.abort(new Error("sign-in cancelled"));
    await assert.rejects(pending, /sign-in cancelled/);
    const own = new AbortController();
    const request = new Request(url, { signal: own.signal });
    const byRequest = boundedFetch(fetch, 60_000)(request);
    own.abort(new Error("request dropped"));
    await assert.rejects(byRequest, /request dropped/);
    await assert.rejects(boundedFetch(fetch, 60_000)(url, { signal: AbortSignal.abort(new Error("already")) }), /already/);
  });

  it("an answer in time is the answer; the limit ends nothing after it", async () => {
    const quick = createServer((_req, res) => res.writeHead(200).end("ok"));
    await new Promise<void>((resolve) => quick.listen(0, "127.0.0.1", resolve));
    try {
      const response = await boundedFetch(fetch, 200)(`http://127.0.0.1:${(quick.address() as AddressInfo).port}/`);
      assert.equal(await response.text(), "ok");
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      quick.closeAllConnections();
      quick.close();
    }
  });
});

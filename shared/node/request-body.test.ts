import * as assert from "node:assert/strict";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { readRequestText } from "./request-body";

describe("a request's body read up to a limit", () => {
  let server: http.Server;
  const read: (string | undefined)[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      void readRequestText(req, 16).then((text) => {
        read.push(text);
        if (text !== undefined) res.end(`got ${text.length}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (body: string) => fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: "POST", body });

  it("gives the whole body as UTF-8 text", async () => {
    const response = await post("héllo wörld");
    assert.equal(await response.text(), "got 11");
    assert.equal(read.at(-1), "héllo wörld");
  });

  it("gives nothing for a body past the limit, and the request is cut off", async () => {
    const outcome = await post("x".repeat(64 * 1024)).then((response) => response.status, (error: Error) => error.name);
    assert.equal(read.at(-1), undefined);
    assert.notEqual(outcome, 200);
  });
});

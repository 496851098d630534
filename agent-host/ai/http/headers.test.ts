import { strict as assert } from "node:assert";
import { FormData as FormDataStandIn, Response as ResponseStandIn } from "./globals";
import { HttpHeaders } from "./headers";
import { HttpResponse } from "./response";

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

describe("HttpHeaders (Headers without undici)", () => {
  it("reads as Node's Headers does: case-insensitive names, trimmed values, several values joined", () => {
    const ours = new HttpHeaders({ "Content-Type": " application/json ", "X-A": "1" });
    const node = new Headers({ "Content-Type": " application/json ", "X-A": "1" });
    for (const h of [ours, node]) {
      h.append("x-a", "2");
      h.append("Set-Cookie", "a=1");
      h.append("set-cookie", "b=2");
      h.set("X-B", "only");
      h.delete("x-missing");
    }
    assert.equal(ours.get("content-type"), node.get("content-type"));
    assert.equal(ours.get("X-A"), "1, 2");
    assert.equal(ours.get("nope"), null);
    assert.equal(ours.has("X-B"), true);
    assert.deepEqual(ours.getSetCookie(), node.getSetCookie());
    assert.deepEqual([...ours], [...node], "same entries in the same order");
    assert.deepEqual([...ours.keys()], [...node.keys()]);
    assert.deepEqual([...ours.values()], [...node.values()]);
    const seen: string[] = [];
    ours.forEach((value, name) => seen.push(`${name}=${value}`));
    assert.deepEqual(seen, [...node].map(([n, v]) => `${n}=${v}`));
  });

  it("takes pairs, records and other Headers, and refuses invalid names", () => {
    assert.equal(new HttpHeaders([["A", "1"], ["a", "2"]]).get("a"), "1, 2");
    assert.equal(new HttpHeaders(new Headers({ b: "3" })).get("B"), "3");
    assert.equal(new HttpHeaders(new HttpHeaders({ c: "4" })).get("c"), "4");
    assert.throws(() => new HttpHeaders({ "bad name": "x" }), TypeError);
    assert.equal(Object.prototype.toString.call(new HttpHeaders()), "[object Headers]");
  });
});

describe("HttpResponse", () => {
  it("reads its body once as text, JSON or bytes; ok follows the status", async () => {
    const response = new HttpResponse(chunks('{"a":', "1}"), 200, "OK", new HttpHeaders({ "content-type": "application/json" }), "http://x/");
    assert.equal(response.ok, true);
    assert.equal(response.bodyUsed, false);
    assert.deepEqual(await response.json(), { a: 1 });
    assert.equal(response.bodyUsed, true);
    await assert.rejects(response.text(), /already been read/);
    const failed = new HttpResponse(chunks("nope"), 404, "Not Found", new HttpHeaders(), "http://x/");
    assert.equal(failed.ok, false);
    assert.equal(new TextDecoder().decode(await failed.arrayBuffer()), "nope");
    assert.equal(await new HttpResponse(null, 204, "", new HttpHeaders(), "http://x/").text(), "");
  });
});

describe("stand-ins for the globals the provider bundles get (esbuild inject)", () => {
  it("FormData: instanceof reads the tag; constructing one gives Node's own", () => {
    const form = new (FormDataStandIn as unknown as new () => FormData)();
    assert.ok(form instanceof globalThis.FormData);
    assert.ok(form instanceof FormDataStandIn);
    assert.ok(!({} instanceof FormDataStandIn));
  });

  it("Response: a text body (as Google's SDK wraps each event) is ours, other bodies Node's; instanceof takes both", async () => {
    const Stand = ResponseStandIn as unknown as new (body?: unknown, init?: { status?: number; statusText?: string; headers?: Headers | HttpHeaders }) => HttpResponse;
    const event = new Stand('{"candidates":[]}', { status: 200, statusText: "OK", headers: new HttpHeaders({ "x-a": "1" }) });
    assert.ok(event instanceof HttpResponse);
    assert.deepEqual(await event.json(), { candidates: [] });
    assert.equal(event.headers.get("x-a"), "1");
    assert.equal(new Stand().body, null);
    const bytes = new Stand(new Uint8Array([104, 105])) as unknown as Response;
    assert.ok(bytes instanceof globalThis.Response);
    assert.equal(await bytes.text(), "hi");
    for (const r of [event, bytes, new Response("x")]) assert.ok(r instanceof ResponseStandIn);
    assert.ok(!({} instanceof ResponseStandIn));
  });

  it("a body reads through a reader too (Google's SDK), once", async () => {
    const response = new HttpResponse(chunks("a", "b"), 200, "OK", new HttpHeaders(), "http://x/");
    const reader = response.body!.getReader();
    const parts: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(new TextDecoder().decode(r.value));
    reader.releaseLock();
    assert.deepEqual(parts, ["a", "b"]);
  });
});

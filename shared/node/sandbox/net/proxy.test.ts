import { strict as assert } from "node:assert";
import { existsSync, statSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { dirname } from "node:path";
import { parseHostPattern, type Target } from "./hosts";
import { NetworkProxy, type ProxyOptions } from "./proxy";

/** Sends `text` on the proxy's socket; resolves with what came back once `done` says so or the socket closed. */
function exchange(socketPath: string, text: string, done: (got: string) => boolean = (got) => /\r\n\r\n/.test(got) && !/Content-Length: [1-9]/i.test(got), after?: (socket: Socket, got: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let got = "";
    let followed = false;
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no answer: ${got}`))), 5_000);
    const finish = () => (clearTimeout(timer), socket.destroy(), resolve(got));
    socket.on("data", (chunk) => {
      got += chunk.toString("latin1");
      if (after && !followed && got.includes("\r\n\r\n")) {
        followed = true;
        after(socket, got);
      } else if (done(got)) finish();
    });
    socket.on("close", finish);
    socket.on("error", reject);
    socket.write(text);
  });
}

const status = (reply: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1]);

describe("sandbox network: the filtering proxy", function () {
  this.timeout(20_000);
  let server: Server;
  let port: number;
  let seen: IncomingHttpHeaders[];
  const proxies: NetworkProxy[] = [];
  const start = async (allowed: string[], options: Partial<ProxyOptions> = {}) => {
    const proxy = await NetworkProxy.start({ allowed: allowed.map((p) => parseHostPattern(p)!), decide: () => Promise.resolve(false), ...options });
    proxies.push(proxy);
    return proxy;
  };

  before(async () => {
    seen = [];
    server = createServer((req, res) => {
      seen.push(req.headers);
      res.end(`hello ${req.url}`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterEach(() => {
    for (const proxy of proxies.splice(0)) proxy.dispose();
  });
  after(() => server.close());

  it("listens in a private folder (0700) and removes it when disposed", async () => {
    const proxy = await start([]);
    assert.equal(statSync(dirname(proxy.socketPath)).mode & 0o777, 0o700);
    proxy.dispose();
    assert.equal(existsSync(dirname(proxy.socketPath)), false);
  });

  it("forwards plain HTTP to a listed host with the URI's Host header, and no proxy credentials", async () => {
    const proxy = await start([`127.0.0.1:${port}`]);
    seen = [];
    const reply = await exchange(proxy.socketPath, `GET http://127.0.0.1:${port}/a?b=1 HTTP/1.1\r\nHost: evil.test\r\nProxy-Authorization: Basic c2VjcmV0\r\nConnection: close\r\n\r\n`);
    assert.equal(status(reply), 200, reply);
    assert.match(reply, /hello \/a\?b=1$/);
    assert.equal(seen[0].host, `127.0.0.1:${port}`, "the Host header is the URI's");
    assert.equal(seen[0]["proxy-authorization"], undefined);
  });

  it("tunnels CONNECT to a listed host", async () => {
    const proxy = await start([`127.0.0.1:${port}`]);
    const reply = await exchange(proxy.socketPath, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, (got) => got.includes("hello /through"), (socket) => socket.write(`GET /through HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    assert.match(reply, /^HTTP\/1\.1 200 Connection Established\r\n\r\n/);
    assert.match(reply, /hello \/through/);
  });

  it("refuses a host not listed with 403 naming it (after asking), and lets it through once allowed", async () => {
    const asked: Target[] = [];
    let allow = false;
    const proxy = await start([`127.0.0.1:${port + 1}`], { decide: (t) => (asked.push(t), Promise.resolve(allow)) });
    const refused = await exchange(proxy.socketPath, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`);
    assert.equal(status(refused), 403);
    assert.match(refused, new RegExp(`403 Forbidden by the Pi sandbox: 127\\.0\\.0\\.1:${port} is not an allowed host`));
    assert.match(refused, /pi\.sandbox\.allowedHosts/);
    assert.deepEqual(asked, [{ host: "127.0.0.1", port }]);
    assert.deepEqual(proxy.refusedSince(0).map((r) => r.target), [`127.0.0.1:${port}`]);
    allow = true;
    const allowed = await exchange(proxy.socketPath, `GET http://127.0.0.1:${port}/ok HTTP/1.1\r\nConnection: close\r\n\r\n`);
    assert.equal(status(allowed), 200, "a literal address the user allowed by its own name");
  });

  it("never reaches a private address through a name, listed or allowed; resolves once and connects to the address it checked", async () => {
    const lookups: string[] = [];
    const names: Record<string, string[]> = { "loop.test": ["127.0.0.1"], "mapped.test": ["::ffff:127.0.0.1"], "meta.test": ["169.254.169.254"], "mixed.test": ["10.0.0.1", "::1"], "rebind.test": ["93.184.216.34", "127.0.0.1"] };
    const connected: string[] = [];
    const proxy = await start(["loop.test"], {
      decide: () => Promise.resolve(true),
      resolve: (host) => (lookups.push(host), Promise.resolve((names[host] ?? []).map((address) => ({ address })))),
      // A connection to the loopback server standing in for the public address it was asked for.
      connect: (address) =>
        new Promise((resolve) => {
          connected.push(address);
          const socket = connect(port, "127.0.0.1", () => resolve(Object.defineProperty(socket, "remoteAddress", { value: address })));
        }),
    });
    for (const name of ["loop.test", "mapped.test", "meta.test", "mixed.test", "localhost", "vm"]) {
      const reply = await exchange(proxy.socketPath, `CONNECT ${name}:${port} HTTP/1.1\r\n\r\n`);
      assert.equal(status(reply), 403, `${name}: ${reply}`);
    }
    assert.deepEqual(connected, [], "nothing connected");
    lookups.length = 0;
    const reply = await exchange(proxy.socketPath, `GET http://rebind.test:${port}/r HTTP/1.1\r\nConnection: close\r\n\r\n`);
    assert.equal(status(reply), 200, reply);
    assert.deepEqual(lookups, ["rebind.test"], "one lookup, outside the sandbox");
    assert.deepEqual(connected, ["93.184.216.34"], "the checked public address, never the loopback one");
  });

  it("does not let a name reach a loopback address even where that address is listed literally", async () => {
    const proxy = await start([`127.0.0.1:${port}`, "loop.test"], { resolve: () => Promise.resolve([{ address: "127.0.0.1" }]) });
    const reply = await exchange(proxy.socketPath, `GET http://loop.test:${port}/ HTTP/1.1\r\nConnection: close\r\n\r\n`);
    assert.equal(status(reply), 403, reply);
    assert.match(reply, /a name never does/);
  });

  it("refuses a connection that reached another address than the one checked", async () => {
    const proxy = await start(["public.test"], {
      resolve: () => Promise.resolve([{ address: "93.184.216.34" }]),
      connect: () => new Promise((resolve) => { const socket = connect(port, "127.0.0.1", () => resolve(socket)); }),
    });
    const reply = await exchange(proxy.socketPath, `CONNECT public.test:${port} HTTP/1.1\r\n\r\n`);
    assert.equal(status(reply), 403, reply);
    assert.match(reply, /reached 127\.0\.0\.1, not the address checked/);
  });

  it("refuses other spellings of loopback than the one listed, and requests it cannot read", async () => {
    const proxy = await start([`127.0.0.1:${port}`]);
    // The same address and port, spelt otherwise: the canonical form matches, and it is what was listed.
    for (const same of ["2130706433", "0x7f.1", "127.1"]) assert.equal(status(await exchange(proxy.socketPath, `CONNECT ${same}:${port} HTTP/1.1\r\n\r\n`)), 200, same);
    for (const other of [`[::ffff:127.0.0.1]:${port}`, `[::ffff:7f00:1]:${port}`, `[::1]:${port}`, `127.0.0.2:${port}`, `0.0.0.0:${port}`, `localhost:${port}`, `127.0.0.1:${port + 1}`]) {
      assert.equal(status(await exchange(proxy.socketPath, `CONNECT ${other} HTTP/1.1\r\n\r\n`)), 403, other);
    }
    const bad = [
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, // origin form: no target of its own
      `GET https://127.0.0.1:${port}/ HTTP/1.1\r\n\r\n`, // https goes through CONNECT
      `GET http://127.0.0.1:${port}@evil.test/ HTTP/1.1\r\n\r\n`, // user info
      `CONNECT 127.0.0.1 HTTP/1.1\r\n\r\n`, // no port
      `CONNECT 127.0.0.1:${port}@evil.test:80 HTTP/1.1\r\n\r\n`,
      `CONNECT evil.test/127.0.0.1:${port} HTTP/1.1\r\n\r\n`,
    ];
    for (const request of bad) assert.equal(status(await exchange(proxy.socketPath, request)), 400, request);
  });

  it("checks each request of a kept-alive connection, and takes no smuggled second one past the check", async () => {
    const asked: Target[] = [];
    const proxy = await start([`127.0.0.1:${port}`], { decide: (t) => (asked.push(t), Promise.resolve(false)) });
    const pipelined = await exchange(proxy.socketPath, `GET http://127.0.0.1:${port}/one HTTP/1.1\r\n\r\nGET http://127.0.0.2:${port}/two HTTP/1.1\r\nConnection: close\r\n\r\n`, () => false);
    assert.match(pipelined, /hello \/one/);
    assert.match(pipelined, /403 Forbidden by the Pi sandbox: 127\.0\.0\.2/);
    assert.deepEqual(asked, [{ host: "127.0.0.2", port }]);
    // A body that hides a request: Content-Length and chunked together is refused by the parser, not forwarded.
    seen = [];
    const smuggled = await exchange(proxy.socketPath, `POST http://127.0.0.1:${port}/a HTTP/1.1\r\nContent-Length: 60\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET http://127.0.0.2:${port}/hidden HTTP/1.1\r\n\r\n`, () => false);
    assert.equal(status(smuggled), 400, smuggled);
    assert.equal(seen.length, 0);
  });

  it("takes a bounded number of connections at once", async () => {
    const proxy = await start([`127.0.0.1:${port}`], { maxConnections: 2 });
    const held = [0, 1].map(() => connect(proxy.socketPath));
    await Promise.all(held.map((s) => new Promise((r) => s.once("connect", r))));
    await new Promise((r) => setTimeout(r, 50));
    const third: string = await exchange(proxy.socketPath, `GET http://127.0.0.1:${port}/third HTTP/1.1\r\n\r\n`).catch((error: Error) => (/EPIPE|ECONNRESET/.test(error.message) ? "" : Promise.reject(error)));
    assert.equal(third, "", "closed at once");
    for (const s of held) s.destroy();
  });

  it("closes open tunnels when disposed", async () => {
    const proxy = await start([`127.0.0.1:${port}`]);
    const closed = exchange(proxy.socketPath, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`, () => false, () => proxy.dispose());
    assert.match(await closed, /^HTTP\/1\.1 200/);
  });
});

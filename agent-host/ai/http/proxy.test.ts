import * as assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import * as net from "node:net";
import type { AddressInfo, Socket } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { fetchFor, httpFetch } from "./fetch";

const listen = async (server: http.Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const close = (server: http.Server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));

async function failure(promise: Promise<unknown>): Promise<Error & { cause?: Error }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { cause?: Error };
  }
  assert.fail("expected a rejection");
}

/** Runs `body` with these proxy variables set (and the others cleared), then restores them. */
async function withEnv(vars: Record<string, string>, body: () => Promise<void>): Promise<void> {
  const names = ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"];
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  for (const n of names) delete process.env[n];
  Object.assign(process.env, vars);
  try {
    await body();
  } finally {
    for (const n of names) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
  }
}

/** The proxies below reach the targets' names (which do not resolve) on 127.0.0.1: loopback targets themselves are never proxied. */
const toLoopback = (absolute: string) => {
  const url = new URL(absolute);
  return { host: "127.0.0.1", port: url.port, path: `${url.pathname}${url.search}` };
};
const named = (host: string) => `target.test:${host.split(":")[1]}`;

describe("httpFetch through a proxy, and its idle timeout", () => {
  it("sends an http request to the proxy with the absolute URL and the proxy's credentials", async () => {
    const targetServer = http.createServer((req, res) => res.end(`target saw ${req.url}`));
    const targetHost = await listen(targetServer);
    const seen: { url?: string; auth?: string; host?: string }[] = [];
    const proxy = http.createServer((req, res) => {
      seen.push({ url: req.url, auth: req.headers["proxy-authorization"], host: req.headers.host });
      const forward = http.request({ ...toLoopback(req.url!), method: req.method, headers: req.headers }, (up) => up.pipe(res));
      req.pipe(forward);
    });
    const proxyHost = await listen(proxy);
    try {
      await withEnv({ HTTP_PROXY: `http://user:p%40ss@${proxyHost}` }, async () => {
        const response = await httpFetch(`http://${named(targetHost)}/v1/models?x=1`, {});
        assert.equal(await response.text(), "target saw /v1/models?x=1");
      });
      assert.equal(seen[0]?.url, `http://${named(targetHost)}/v1/models?x=1`);
      assert.equal(seen[0]?.host, named(targetHost));
      assert.equal(seen[0]?.auth, `Basic ${Buffer.from("user:p@ss").toString("base64")}`);
      await withEnv({ HTTP_PROXY: `http://${proxyHost}`, NO_PROXY: "target.test" }, async () => {
        const direct = await failure(httpFetch(`http://${named(targetHost)}/direct`, {}));
        assert.match(String(direct.cause?.message), /ENOTFOUND target\.test/, "tried directly");
        assert.equal(await (await httpFetch(`http://${targetHost}/loopback`, {})).text(), "target saw /loopback");
      });
      assert.equal(seen.length, 1, "NO_PROXY and a loopback target went straight to the server");
    } finally {
      await close(proxy);
      await close(targetServer);
    }
  });

  it("settings.json's httpProxy, given as a request option, is used without any proxy variable set (NO_PROXY still applies)", async () => {
    const targetServer = http.createServer((req, res) => res.end(`target saw ${req.url}`));
    const targetHost = await listen(targetServer);
    const seen: string[] = [];
    const proxy = http.createServer((req, res) => {
      seen.push(req.url!);
      const forward = http.request({ ...toLoopback(req.url!), method: req.method, headers: req.headers }, (up) => up.pipe(res));
      req.pipe(forward);
    });
    const proxyHost = await listen(proxy);
    try {
      await withEnv({}, async () => {
        const fetchViaSettings = fetchFor({ httpProxy: `http://${proxyHost}` });
        assert.equal(await (await fetchViaSettings(`http://${named(targetHost)}/v1/models`, {})).text(), "target saw /v1/models");
        assert.equal(process.env.HTTP_PROXY, undefined, "the host's environment is not changed");
      });
      assert.deepEqual(seen, [`http://${named(targetHost)}/v1/models`]);
      await withEnv({ NO_PROXY: "target.test" }, async () => {
        const direct = await failure(fetchFor({ httpProxy: `http://${proxyHost}` })(`http://${named(targetHost)}/direct`, {}));
        assert.match(String(direct.cause?.message), /ENOTFOUND target\.test/, "tried directly");
      });
      assert.equal(seen.length, 1, "NO_PROXY went straight to the server");
    } finally {
      await close(proxy);
      await close(targetServer);
    }
  });

  it("opens https through a CONNECT tunnel, and names the proxy when it refuses", async () => {
    const connects: { authority?: string; auth?: string }[] = [];
    const proxy = http.createServer();
    proxy.on("connect", (req: http.IncomingMessage, socket: Socket) => {
      connects.push({ authority: req.url, auth: req.headers["proxy-authorization"] });
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
    });
    const proxyHost = await listen(proxy);
    try {
      await withEnv({ HTTPS_PROXY: `http://u:p@${proxyHost}` }, async () => {
        const error = await failure(httpFetch("https://api.example.test:8443/v1/messages", { method: "POST", body: "{}" }));
        assert.ok(error instanceof TypeError);
        assert.equal(error.message, "fetch failed");
        assert.match(String(error.cause?.message), /refused to connect to api\.example\.test:8443: 403/);
      });
      assert.deepEqual(connects, [{ authority: "api.example.test:8443", auth: `Basic ${Buffer.from("u:p").toString("base64")}` }]);
      await withEnv({ HTTPS_PROXY: "https://secure-proxy:1" }, async () => {
        const error = await failure(httpFetch("https://api.example.test/", {}));
        assert.match(String(error.cause?.message), /only http:\/\/ proxies/);
      });
    } finally {
      await close(proxy);
    }
  });

  it("talks TLS to the real server through one kept-alive tunnel (a throwaway certificate, trusted via NODE_EXTRA_CA_CERTS in a child)", async function () {
    this.timeout(30_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "proxy-tls-"));
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=secure.test", "-addext", "subjectAltName=DNS:secure.test"], { stdio: "ignore" });
    const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => res.end(`secure ${req.method} ${req.url} ${body}`));
    });
    const serverHost = await listen(server as unknown as http.Server);
    const tunnels: string[] = [];
    const sockets: Socket[] = [];
    const proxy = http.createServer();
    proxy.on("connect", (req: http.IncomingMessage, client: Socket) => {
      tunnels.push(req.url!);
      sockets.push(client);
      const upstream = net.connect(Number(serverHost.split(":")[1]), "127.0.0.1", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.push(upstream);
    });
    const proxyHost = await listen(proxy);
    const script = path.join(dir, "fetch.ts");
    const target = `https://secure.test:${serverHost.split(":")[1]}/v1/messages`;
    const call = (body: string) => `await httpFetch(${JSON.stringify(target)}, { method: "POST", body: ${JSON.stringify(body)} }).then(async (r) => console.log(r.status, await r.text()));`;
    fs.writeFileSync(script, `import { httpFetch } from ${JSON.stringify(path.join(__dirname, "fetch.ts"))};\nvoid (async () => {\n${call("hello")}\n${call("again")}\n})();\n`);
    try {
      const output = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: cert, HTTPS_PROXY: `http://${proxyHost}`, NO_PROXY: "" } });
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        const timer = setTimeout(() => child.kill(), 15_000);
        child.on("error", reject);
        child.on("close", () => (clearTimeout(timer), resolve(out.trim())));
      });
      assert.equal(output, "200 secure POST /v1/messages hello\n200 secure POST /v1/messages again");
      assert.deepEqual(tunnels, [`secure.test:${serverHost.split(":")[1]}`], "one tunnel, kept alive for the second request");
    } finally {
      // Tunnels are no longer the servers' connections: close them first, or close() waits on them.
      for (const socket of sockets) socket.destroy();
      await close(server as unknown as http.Server);
      await close(proxy);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives up on a server that sends nothing for the idle timeout, before or during the body", async () => {
    const server = http.createServer((req, res) => {
      if (req.url === "/stall") {
        res.writeHead(200);
        res.write("first");
      }
    });
    const host = await listen(server);
    try {
      await withEnv({}, async () => {
        const silent = await failure(httpFetch(`http://${host}/never`, {}, 150));
        assert.equal(silent.message, "fetch failed");
        assert.match(String(silent.cause?.message), /No data from .* for 150 ms/);
        const stalled = await httpFetch(`http://${host}/stall`, {}, 150);
        const broken = await failure(stalled.text());
        assert.equal(broken.message, "terminated");
      });
    } finally {
      await close(server);
    }
  });
});

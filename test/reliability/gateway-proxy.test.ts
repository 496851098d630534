// The key gateway behind a company proxy: each upstream request goes through the proxy the agent
// would have used (HTTP(S)_PROXY / NO_PROXY of the environment it is given, settings.json's
// httpProxy, else VS Code's http.proxy). The providers here have names that do not resolve
// (api.proxied.test, api.plain.test): only the loopback proxy below can reach them, so an answer
// proves the request went through it. The gateway runs in a child (gateway-child.ts) that trusts
// a throwaway certificate through NODE_EXTRA_CA_CERTS.
import { strict as assert } from "node:assert";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import * as net from "node:net";
import type { AddressInfo, Socket } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import type { EditorProxy } from "../../extension/gateway/agent-gateway";
import { fakeSecret } from "./leak-scan";

const listen = async (server: http.Server | https.Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
};

interface Seen {
  url: string;
  host?: string;
  authorization?: string;
  proxyAuthorization?: string;
}

/** A loopback HTTP proxy that counts CONNECTs, records plain requests, and keeps every byte relayed through its tunnels. */
async function startProxy() {
  const connects: { authority: string; auth?: string }[] = [];
  const plain: Seen[] = [];
  const sockets: Socket[] = [];
  let tunnelled = Buffer.alloc(0);
  const server = http.createServer((req, res) => {
    plain.push({ url: req.url!, host: req.headers.host, authorization: req.headers.authorization, proxyAuthorization: req.headers["proxy-authorization"] });
    const target = new URL(req.url!);
    const forward = http.request({ host: "127.0.0.1", port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  server.on("connect", (req: http.IncomingMessage, client: Socket) => {
    connects.push({ authority: req.url!, auth: req.headers["proxy-authorization"] });
    sockets.push(client);
    const upstream = net.connect(Number(req.url!.split(":").pop()), "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.pipe(client);
      client.on("data", (chunk: Buffer) => (tunnelled = Buffer.concat([tunnelled, chunk])));
      client.pipe(upstream);
    });
    sockets.push(upstream);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    plain,
    tunnelled: () => tunnelled,
    close: () => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), server.closeAllConnections(), server.close(() => resolve()))),
  };
}
type Proxy = Awaited<ReturnType<typeof startProxy>>;

/** What a provider saw: each request's path and key. */
function recording(seen: Seen[]) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push({ url: req.url!, host: req.headers.host, authorization: req.headers.authorization });
    req.resume();
    req.on("end", () => res.end(JSON.stringify({ ok: true })));
  };
}

interface Gateway {
  roots: Record<string, string>;
  token: string;
  child: ChildProcess;
}

/** A raw request from "the agent": the token where its key would be. */
function ask(gateway: Gateway, provider: string, suffix = "/v1/chat/completions"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${gateway.roots[provider]}${suffix}`, { method: "POST", headers: { authorization: `Bearer ${gateway.token}`, "content-type": "application/json" } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end("{}");
  });
}

describe("model gateway behind an HTTP proxy", function () {
  this.timeout(60_000);
  const keys = { SECURE_KEY: fakeSecret("sk-secure-"), LOCAL_KEY: fakeSecret("sk-local-"), PLAIN_KEY: fakeSecret("sk-plain-") };
  let dir: string;
  let cert: string;
  let tlsPort: number;
  let plainPort: number;
  const tlsSeen: Seen[] = [];
  const plainSeen: Seen[] = [];
  let tlsServer: https.Server;
  let plainServer: http.Server;
  let proxy: Proxy;
  let children: ChildProcess[] = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-proxy-"));
    const key = path.join(dir, "key.pem");
    cert = path.join(dir, "cert.pem");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=api.proxied.test", "-addext", "subjectAltName=DNS:api.proxied.test,DNS:localhost"], { stdio: "ignore" });
    tlsServer = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, recording(tlsSeen));
    tlsPort = await listen(tlsServer);
    plainServer = http.createServer(recording(plainSeen));
    plainPort = await listen(plainServer);
  });
  after(async () => {
    tlsServer.closeAllConnections();
    plainServer.closeAllConnections();
    await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    await new Promise<void>((resolve) => plainServer.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    tlsSeen.length = 0;
    plainSeen.length = 0;
    proxy = await startProxy();
  });
  afterEach(async () => {
    for (const child of children) child.kill();
    children = [];
    await proxy.close();
  });

  /** An agent directory (models.json with the three providers, settings.json if given) and a gateway started for it. */
  async function startGateway(agentEnv: Record<string, string>, options: { settings?: unknown; editorProxy?: EditorProxy } = {}): Promise<Gateway> {
    const agentDir = fs.mkdtempSync(path.join(dir, "agent-"));
    const providers = {
      secure: { baseUrl: `https://api.proxied.test:${tlsPort}/v1`, apiKey: "$SECURE_KEY" },
      local: { baseUrl: `https://localhost:${tlsPort}/v1`, apiKey: "$LOCAL_KEY" },
      plain: { baseUrl: `http://api.plain.test:${plainPort}/v1`, apiKey: "$PLAIN_KEY" },
    };
    fs.writeFileSync(path.join(agentDir, "models.json"), JSON.stringify({ providers }));
    if (options.settings !== undefined) fs.writeFileSync(path.join(agentDir, "settings.json"), JSON.stringify(options.settings));
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "gateway-child.ts")], {
      env: { PATH: process.env.PATH ?? "", HOME: dir, NODE_EXTRA_CA_CERTS: cert },
      stdio: ["pipe", "pipe", "inherit"],
    });
    children.push(child);
    child.stdin!.end(`${JSON.stringify({ keys, agentEnv: { ...agentEnv, PI_CODING_AGENT_DIR: agentDir }, ...(options.editorProxy ? { editorProxy: options.editorProxy } : {}) })}\n`);
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
      });
      child.on("error", reject);
      child.on("exit", (code) => reject(new Error(`gateway child exited (${code}): ${out}`)));
    });
    const started = JSON.parse(line) as Gateway & { error?: string };
    assert.equal(started.error, undefined);
    return { ...started, child };
  }

  it("HTTPS_PROXY: an https provider through one kept-alive CONNECT tunnel, with the proxy's credentials; the key only inside TLS", async () => {
    const gateway = await startGateway({ HTTPS_PROXY: `http://corp:p%40ss@${proxy.url.slice("http://".length)}` });
    const first = await ask(gateway, "secure");
    assert.equal(first.status, 200, first.body);
    assert.equal((await ask(gateway, "secure")).status, 200);
    assert.deepEqual(proxy.connects, [{ authority: `api.proxied.test:${tlsPort}`, auth: `Basic ${Buffer.from("corp:p@ss").toString("base64")}` }], "one tunnel, kept alive");
    assert.deepEqual(
      tlsSeen.map((s) => [s.url, s.authorization]),
      [
        ["/v1/chat/completions", `Bearer ${keys.SECURE_KEY}`],
        ["/v1/chat/completions", `Bearer ${keys.SECURE_KEY}`],
      ],
    );
    assert.ok(proxy.tunnelled().length > 0);
    assert.ok(!proxy.tunnelled().includes(keys.SECURE_KEY), "the key never crosses the proxy in clear");
    assert.ok(!proxy.tunnelled().includes(gateway.token), "nor does the gateway's token");
  });

  it("NO_PROXY: a provider it names is tried directly (no CONNECT), the others still through the proxy; a loopback provider never goes to it", async () => {
    const gateway = await startGateway({ https_proxy: proxy.url, NO_PROXY: "example.org, api.proxied.test" });
    const direct = await ask(gateway, "secure");
    assert.equal(direct.status, 502);
    assert.match(direct.body, /ENOTFOUND api\.proxied\.test/, "tried directly, where the name does not resolve");
    assert.equal((await ask(gateway, "local")).status, 200);
    assert.equal(tlsSeen[0]?.authorization, `Bearer ${keys.LOCAL_KEY}`);
    assert.deepEqual(proxy.connects, []);
    const other = await startGateway({ HTTPS_PROXY: proxy.url, NO_PROXY: "example.org" });
    assert.equal((await ask(other, "secure")).status, 200);
    assert.equal(proxy.connects.length, 1);
  });

  it("HTTP_PROXY: an http:// provider through the proxy with the absolute URL and Proxy-Authorization (the proxy sees that key: plain http)", async () => {
    const gateway = await startGateway({ HTTP_PROXY: `http://u:p@${proxy.url.slice("http://".length)}` });
    const answer = await ask(gateway, "plain", "/v1/models?limit=2");
    assert.equal(answer.status, 200, answer.body);
    assert.deepEqual(proxy.plain, [{ url: `http://api.plain.test:${plainPort}/v1/models?limit=2`, host: `api.plain.test:${plainPort}`, authorization: `Bearer ${keys.PLAIN_KEY}`, proxyAuthorization: `Basic ${Buffer.from("u:p").toString("base64")}` }]);
    assert.equal(plainSeen[0]?.url, "/v1/models?limit=2");
    assert.equal(plainSeen[0]?.authorization, `Bearer ${keys.PLAIN_KEY}`);
    assert.equal(proxy.connects.length, 0);
  });

  it("settings.json's httpProxy (no proxy variable set) is used for https and http providers", async () => {
    const gateway = await startGateway({}, { settings: { httpProxy: proxy.url } });
    assert.equal((await ask(gateway, "secure")).status, 200);
    assert.equal((await ask(gateway, "plain")).status, 200);
    assert.equal(proxy.connects.length, 1);
    assert.equal(proxy.plain.length, 1);
  });

  it("VS Code's http.proxy when the agent's own configuration names no proxy (http.noProxy honoured); the agent's proxy wins over it", async () => {
    const viaEditor = await startGateway({}, { editorProxy: { proxy: proxy.url, noProxy: ["api.plain.test"] } });
    assert.equal((await ask(viaEditor, "secure")).status, 200);
    assert.match((await ask(viaEditor, "plain")).body, /ENOTFOUND api\.plain\.test/, "http.noProxy: tried directly");
    assert.deepEqual(proxy.connects.map((c) => c.authority), [`api.proxied.test:${tlsPort}`]);
    assert.equal(proxy.plain.length, 0);
    const other = await startProxy();
    try {
      const agentsOwn = await startGateway({ HTTPS_PROXY: other.url }, { editorProxy: { proxy: proxy.url } });
      assert.equal((await ask(agentsOwn, "secure")).status, 200);
      assert.equal(other.connects.length, 1);
      assert.equal(proxy.connects.length, 1, "VS Code's proxy was not used");
    } finally {
      for (const child of children) child.kill();
      await other.close();
    }
  });

  it("a proxy it cannot use (https://) is a 502 that names it, without the key; an unreachable one too", async () => {
    const unsupported = await startGateway({ HTTPS_PROXY: "https://secure-proxy.test:1" });
    const refused = await ask(unsupported, "secure");
    assert.equal(refused.status, 502);
    assert.match(refused.body, /only http:\/\/ proxies/);
    const gone = await startGateway({ HTTPS_PROXY: "http://127.0.0.1:1" });
    const unreachable = await ask(gone, "secure");
    assert.equal(unreachable.status, 502);
    for (const body of [refused.body, unreachable.body]) assert.ok(!body.includes(keys.SECURE_KEY));
    assert.equal(tlsSeen.length, 0);
  });
});

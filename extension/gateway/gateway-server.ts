/**
 * The model gateway's core (plain node:http, no vscode, so it is unit-tested): a loopback HTTP
 * server that stands between an agent and its model providers, so that the agent never holds a
 * provider's key. The agent is given the gateway's URL and a per-session token where the key
 * would be; the gateway checks the token, swaps the real key in at the same place (so every wire
 * format works unchanged: `Authorization: Bearer`, `x-api-key`, `x-goog-api-key`, `?key=`, a
 * models.json custom header) and forwards the request to that provider's own origin only. The
 * response is piped back byte for byte (no parsing: it runs in VS Code's shared extension host),
 * and an abort on either side closes the other.
 *
 *   GET/POST http://127.0.0.1:PORT/<provider>/<path>  →  <provider's origin>/<path>
 *
 * Refused: a wrong or missing token (401), a browser's request (an Origin or Sec-Fetch-Site header:
 * 403), a Host other than the gateway's own address (DNS rebinding: 403), a provider it does not
 * know or a path that is not origin-relative (404).
 *
 * Behind a company proxy (HTTP(S)_PROXY / NO_PROXY in `proxyEnv`, shared/node/http-proxy.ts) an
 * https upstream is reached through the proxy's CONNECT tunnel, so the proxy carries only TLS and
 * never sees the key; an http:// upstream is sent to the proxy with the absolute URL, and there the
 * proxy necessarily sees the key, as it would the agent's own plain-http request.
 */
import * as crypto from "node:crypto";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { checkedProxy, createTunnelAgent, proxyAuthorization, proxyFor, type Env } from "../../shared/node/http-proxy";
import { errorText } from "../../shared/error-text";

export interface GatewayRoute {
  /** The first path segment: a provider name as the agent knows it. */
  name: string;
  /** Where its requests go: only this origin (scheme, host, port) is used. */
  upstream: string;
  /** Reads the real key when a request needs it (SecretStorage); undefined: refused (502). */
  key: () => Promise<string | undefined>;
  /** Headers of its own (models.json `headers` that read the key) that may carry it, lower case. */
  keyHeaders?: readonly string[];
}

export interface GatewayServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** The per-session token the agent uses in place of every key. */
  readonly token: string;
  /**
   * A token for one route alone (undefined: no such route): for an agent given a single provider
   * (an ACP agent's sign-in), which is then not given the user's other keys to spend.
   */
  routeToken(name: string): string | undefined;
  close(): Promise<void>;
}

export interface GatewayOptions {
  /** HTTP(S)_PROXY / NO_PROXY (either case) for the upstream requests; none: direct. */
  proxyEnv?: Env;
  /**
   * Providers the gateway answers itself (VS Code's models: extension/vscode-lm/), by name: after
   * the same checks and the token (in `Authorization: Bearer`), the handler gets the path after the name.
   */
  local?: ReadonlyMap<string, LocalHandler>;
}

/** Serves one local provider's request; `path` is what follows `/<name>` (with its query). */
export type LocalHandler = (req: http.IncomingMessage, res: http.ServerResponse, path: string) => Promise<void>;

interface Upstream {
  route: GatewayRoute;
  url: URL;
  client: typeof http | typeof https;
  agent: http.Agent;
  carriers: ReadonlySet<string>;
  /** An http:// upstream through a proxy: requests go to it with the absolute URL. */
  forwardProxy?: URL;
  /** A proxy that cannot be used (not http://): each request is refused with this. */
  proxyProblem?: string;
}

/** How requests reach `url`: directly, through a CONNECT tunnel (https), or via the proxy's absolute-URL form (http). */
function upstreamFor(route: GatewayRoute, url: URL, proxyEnv: Env): Upstream {
  const carriers = new Set([...keyHeaders, ...(route.keyHeaders ?? []).map((name) => name.toLowerCase())]);
  const secure = url.protocol === "https:";
  const client = secure ? https : http;
  const direct = (): http.Agent => new client.Agent({ keepAlive: true });
  const proxy = proxyFor(url, proxyEnv);
  if (!proxy) return { route, url, client, agent: direct(), carriers };
  try {
    checkedProxy(proxy);
  } catch (error) {
    return { route, url, client, agent: direct(), carriers, proxyProblem: errorText(error) };
  }
  if (secure) return { route, url, client, agent: createTunnelAgent(proxy), carriers };
  return { route, url, client, agent: new http.Agent({ keepAlive: true }), carriers, forwardProxy: proxy };
}

// Hop-by-hop headers (RFC 9110 §7.6.1) and what this gateway sets itself.
const notForwarded = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade", "host", "forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto"]);
const routeName = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/**
 * Where the wire formats carry a key (OpenAI and compatible, Azure, Anthropic, Google): the only
 * headers the key is put in, so the token cannot ask for the key in a header a server might echo.
 */
const keyHeaders = ["authorization", "x-api-key", "api-key", "x-goog-api-key"];
const maxErrorBody = 1 << 20;

/** `value` with every occurrence of the key (as sent, and URL-encoded) masked. */
function redact<T extends string | string[] | number>(value: T, key: string): T {
  const mask = (text: string) => text.split(key).join("***").split(encodeURIComponent(key)).join("***");
  if (typeof value === "string") return mask(value) as T;
  if (Array.isArray(value)) return value.map(mask) as T;
  return value;
}

/** Starts a gateway on 127.0.0.1 (a random port) for these routes, with a fresh 32-byte token. */
export async function startGatewayServer(routes: readonly GatewayRoute[], options: GatewayOptions = {}): Promise<GatewayServer> {
  const token = crypto.randomBytes(32).toString("base64url");
  const routeTokens = new Map<string, string>();
  const upstreams = new Map<string, Upstream>();
  for (const route of routes) {
    if (!routeName.test(route.name)) throw new Error(`Not a provider name the gateway can route: ${route.name}`);
    const url = new URL(route.upstream);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`Provider ${route.name}: not an http(s) URL`);
    upstreams.set(route.name, upstreamFor(route, url, options.proxyEnv ?? {}));
    routeTokens.set(route.name, crypto.randomBytes(32).toString("base64url"));
  }
  const local = options.local ?? new Map<string, LocalHandler>();
  for (const name of local.keys()) {
    if (!routeName.test(name) || upstreams.has(name)) throw new Error(`Not a local provider name the gateway can serve: ${name}`);
  }
  let ownHost = "";
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => void handle(req, res));
  server.on("connection", (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const refuse = (res: http.ServerResponse, status: number, message: string) => {
    res.writeHead(status, { "content-type": "application/json", connection: "close" });
    res.end(JSON.stringify({ error: { type: "gateway_refused", message } }));
  };

  /** Whether `value` is the session token or `route`'s own, alone or after a scheme word ("Bearer <token>"); constant time. */
  const carriesToken = (value: string, route: string): boolean => {
    const candidate = Buffer.from(value.slice(value.lastIndexOf(" ") + 1));
    const same = (expected: string | undefined) => expected !== undefined && candidate.length === expected.length && crypto.timingSafeEqual(candidate, Buffer.from(expected));
    return same(token) || same(routeTokens.get(route));
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // Browsers send Origin on every CORS request and Sec-Fetch-Site on every request; Node's SDKs
    // send neither (Node's fetch does send Sec-Fetch-Mode, so that one says nothing).
    if (req.headers.origin !== undefined || req.headers["sec-fetch-site"] !== undefined) return refuse(res, 403, "browser requests are refused");
    if (req.headers.host !== ownHost) return refuse(res, 403, "wrong Host");
    const target = req.url ?? "";
    if (!target.startsWith("/")) return refuse(res, 404, "not a gateway path");
    const slash = target.indexOf("/", 1);
    const query = target.indexOf("?");
    const end = [slash, query].filter((i) => i > 0).reduce((a, b) => Math.min(a, b), target.length);
    const name = target.slice(1, end);
    let rest = target.slice(end);
    if (!rest.startsWith("/")) rest = `/${rest}`;
    const serveLocally = local.get(name);
    if (serveLocally) {
      const authorization = req.headers.authorization;
      if (typeof authorization !== "string" || !carriesToken(authorization, "")) return refuse(res, 401, "missing or wrong gateway token");
      return serveLocally(req, res, rest).catch((error: unknown) => {
        if (!res.headersSent) refuse(res, 500, errorText(error));
        else res.destroy();
      });
    }
    const upstream = upstreams.get(name);
    if (!upstream) return refuse(res, 404, "unknown provider");

    // The token, wherever the agent's SDK put its key: headers, or Google's ?key=.
    const headers: http.OutgoingHttpHeaders = {};
    const carriers: string[] = [];
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || notForwarded.has(name)) continue;
      headers[name] = value;
      if (typeof value === "string" && upstream.carriers.has(name) && carriesToken(value, upstream.route.name)) carriers.push(name);
    }
    const search = new URL(rest, "http://gateway.invalid").searchParams;
    const queryToken = search.getAll("key").find((value) => carriesToken(value, upstream.route.name)); // Google's ?key=
    if (carriers.length === 0 && queryToken === undefined) return refuse(res, 401, "missing or wrong gateway token");
    if (upstream.proxyProblem) return refuse(res, 502, `upstream: ${upstream.proxyProblem}`);
    const key = await upstream.route.key().catch(() => undefined); // SecretStorage failing: refused below as no key
    if (!key) return refuse(res, 502, `no key stored for ${upstream.route.name}`);
    // Both tokens are 43 characters: the one carried ends the value.
    for (const name of carriers) headers[name] = (headers[name] as string).slice(0, -token.length) + key;
    // The token is base64url: it stands in the query exactly as it was issued.
    const path = queryToken !== undefined ? rest.split(queryToken).join(encodeURIComponent(key)) : rest;
    headers.host = upstream.url.host;
    headers["accept-encoding"] = "identity"; // so that an error body can be read for the key (below)

    const via = upstream.forwardProxy;
    // Plain http through a proxy: the absolute URL to the proxy (which reads the key, as it would the agent's).
    const destination = via
      ? { protocol: "http:", hostname: via.hostname, port: via.port || 80, path: `${upstream.url.origin}${path}`, headers: { ...headers, ...proxyAuthorization(via) } }
      : { protocol: upstream.url.protocol, hostname: upstream.url.hostname, port: upstream.url.port || undefined, path, headers };
    const outgoing = upstream.client.request(
      { ...destination, method: req.method, agent: upstream.agent },
      (incoming) => {
        const status = incoming.statusCode ?? 502;
        const back: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined && !notForwarded.has(name)) back[name] = redact(value, key);
        incoming.on("error", () => res.destroy());
        incoming.on("aborted", () => res.destroy());
        if (status >= 200 && status < 300) {
          res.writeHead(status, incoming.statusMessage, back);
          res.flushHeaders();
          incoming.pipe(res);
          return;
        }
        // An error often echoes what it was sent ("Incorrect API key provided: …"): its (small,
        // uncompressed) body is read whole and the key masked before the agent sees it.
        const chunks: Buffer[] = [];
        let size = 0;
        incoming.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= maxErrorBody) chunks.push(chunk);
        });
        incoming.on("end", () => {
          const body = Buffer.from(redact(Buffer.concat(chunks).toString("utf8"), key));
          back["content-length"] = String(body.length);
          res.writeHead(status, incoming.statusMessage, back);
          res.end(body);
        });
      },
    );
    outgoing.on("socket", (socket) => socket.setNoDelay(true));
    outgoing.on("error", (error) => {
      if (!res.headersSent) refuse(res, 502, `upstream: ${error.message.split(key).join("***")}`);
      else res.destroy();
    });
    // The agent went away (abort, crash): so does the upstream request.
    res.on("close", () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    req.pipe(outgoing);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  ownHost = `127.0.0.1:${port}`;
  return {
    url: `http://${ownHost}`,
    token,
    routeToken: (name) => routeTokens.get(name),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        for (const upstream of upstreams.values()) upstream.agent.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * HTTP(S)_PROXY and NO_PROXY for model requests (the host's own, and the extension's key gateway
 * forwarding an agent's), as curl and pi read them: the
 * lower-case variable first; NO_PROXY lists host names (a name matches its subdomains; a leading
 * "." or "*." is allowed), optionally with ":port", or "*" for everything. Only http:// proxies:
 * plain requests go to the proxy with the absolute URL, https ones through a CONNECT tunnel.
 */
import type * as http from "node:http";
import type * as https from "node:https";
import type { Socket } from "node:net";

export type Env = Record<string, string | undefined>;

/**
 * The proxy a request to `target` goes through, if any. A loopback target (127.0.0.0/8, ::1,
 * localhost) never is, as in Go's net/http: a remote proxy cannot reach this machine's loopback,
 * and the agent's requests to the editor's key gateway (http://127.0.0.1, its token in clear) must
 * not go to a proxy that HTTP_PROXY or settings.json's httpProxy names.
 */
export function proxyFor(target: URL, env: Env = process.env): URL | undefined {
  const raw = target.protocol === "https:" ? (env.https_proxy ?? env.HTTPS_PROXY) : (env.http_proxy ?? env.HTTP_PROXY);
  if (!raw?.trim() || isLoopback(target) || bypassed(target, env.no_proxy ?? env.NO_PROXY ?? "")) return undefined;
  const text = raw.trim();
  return new URL(text.includes("://") ? text : `http://${text}`);
}

/**
 * `env` with settings.json's `httpProxy` as HTTP_PROXY and HTTPS_PROXY, as pi applies it (a
 * lower-case variable, read first, still wins; NO_PROXY still applies). A copy: `env` is unchanged.
 */
export function withHttpProxy(env: Env, httpProxy: string | undefined): Env {
  return httpProxy ? { ...env, HTTP_PROXY: httpProxy, HTTPS_PROXY: httpProxy } : env;
}

function isLoopback(target: URL): boolean {
  const host = target.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1" || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  for (const entry of noProxy.split(/[\s,]+/).filter(Boolean)) {
    if (entry === "*") return true;
    const [rawName, port] = hostAndPort(entry.toLowerCase());
    const name = rawName.replace(/^\*?\./, "");
    if (port && port !== defaultPort(target)) continue;
    if (name && (host === name || host.endsWith(`.${name}`))) return true;
  }
  return false;
}

/** "host", "host:port", "[v6]:port" or a bare IPv6 address. */
function hostAndPort(entry: string): [string, string | undefined] {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return [bracketed[1]!, bracketed[2]];
  const colons = entry.split(":").length - 1;
  if (colons !== 1) return [entry, undefined];
  const [name, port] = entry.split(":");
  return [name!, port];
}

/** `Proxy-Authorization` from the proxy URL's user and password, if it has them. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { "proxy-authorization": `Basic ${Buffer.from(credentials).toString("base64")}` };
}

export function checkedProxy(proxy: URL): URL {
  if (proxy.protocol !== "http:") throw new Error(`Unsupported proxy ${proxy.protocol}//${proxy.host}: only http:// proxies are supported`);
  return proxy;
}

/** A TLS connection to `host:port` through the proxy's CONNECT tunnel. */
function openTunnel(proxy: URL, host: string, port: string, done: (error: Error | null, socket?: Socket) => void): void {
  const httpModule = require("node:http") as typeof http;
  const authority = `${host}:${port}`;
  const connect = httpModule.request({
    host: proxy.hostname,
    port: proxy.port || 80,
    method: "CONNECT",
    path: authority,
    headers: { host: authority, ...proxyAuthorization(proxy) },
    agent: false,
  });
  connect.once("connect", (res: http.IncomingMessage, socket: Socket) => {
    if (res.statusCode !== 200) {
      socket.destroy();
      return done(new Error(`The proxy ${proxy.host} refused to connect to ${authority}: ${res.statusCode} ${res.statusMessage ?? ""}`.trim()));
    }
    const tls = require("node:tls") as typeof import("node:tls");
    done(null, tls.connect({ socket, servername: host, ALPNProtocols: ["http/1.1"] }));
  });
  connect.once("error", (error) => done(error));
  connect.end();
}

/**
 * A new keep-alive agent whose connections are TLS through the proxy's CONNECT tunnels: one
 * tunnel serves request after request to the same server, as a direct connection would. Its
 * owner destroys it (the gateway, when it closes).
 */
export function createTunnelAgent(proxy: URL): https.Agent {
  const httpsModule = require("node:https") as typeof https;
  const agent = new httpsModule.Agent({ keepAlive: true });
  type Done = (error: Error | null, socket?: Socket) => void;
  // Node's agents accept a createConnection that answers through its callback.
  (agent as unknown as { createConnection: (options: { host?: string; port?: number | string }, done: Done) => undefined }).createConnection = (options, done) => {
    openTunnel(proxy, options.host ?? "localhost", String(options.port ?? 443), done);
    return undefined;
  };
  return agent;
}

const tunnelAgents = new Map<string, https.Agent>();

/** The process's shared tunnel agent for this proxy (the host's model requests), made once. */
export function tunnelAgent(proxy: URL): https.Agent {
  let agent = tunnelAgents.get(proxy.href);
  if (!agent) {
    agent = createTunnelAgent(proxy);
    tunnelAgents.set(proxy.href, agent);
  }
  return agent;
}

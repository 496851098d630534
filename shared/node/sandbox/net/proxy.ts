/**
 * The network of a sandbox with allowed hosts: an HTTP proxy in the host process (outside the
 * sandbox) on a unix socket in a private 0700 folder, which the sandbox reaches only through the
 * bridge (bridge.ts). Plain HTTP (absolute URI) and CONNECT tunnels, to hosts that match the list
 * or that `decide` allows (the client's question); the rest get 403 with a reason naming the host.
 * Names are resolved here, never inside; the proxy connects to an address it checked (no second
 * lookup: no DNS rebinding) and checks the address it really reached. A private address (loopback,
 * link-local, private ranges, addresses.ts) is reached only by a request that names it literally
 * (`127.0.0.1:8080`, listed or allowed when asked: the question says what it is), never by a name.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isPublicAddress } from "./addresses";
import { canonicalAddress, formatTarget, isIpLiteral, matches, parseAuthority, type HostPattern, type Target } from "./hosts";

export type Resolver = (host: string) => Promise<readonly { address: string }[]>;
/** For a host not in the list: may it be reached? (The question; false when nobody can answer.) */
export type HostDecision = (target: Target) => Promise<boolean>;

export interface ProxyOptions {
  allowed: readonly HostPattern[];
  decide: HostDecision;
  /** Name → addresses (default: the system's resolver, all addresses). */
  resolve?: Resolver;
  /** Opens a TCP connection to a checked address (default: node:net; tests inject one that lies). */
  connect?: (address: string, port: number) => Promise<Socket>;
  connectTimeoutMs?: number;
  /** Connections from the sandbox open at once (default 256): a command cannot use up the host's file descriptors. */
  maxConnections?: number;
}

/** A request the proxy refused, for the denial text of the command that made it. */
export interface Refusal {
  at: number;
  target: string;
  why: string;
}

type Opened = { socket: Socket } | { status: number; reason: string; body: string };

const http = (): typeof import("node:http") => require("node:http") as typeof import("node:http");
const net = (): typeof import("node:net") => require("node:net") as typeof import("node:net");

const systemResolver: Resolver = (host) => (require("node:dns") as typeof import("node:dns")).promises.lookup(host, { all: true, verbatim: true });

/** Headers that belong to one hop, never forwarded (and Proxy-Authorization never leaves the proxy). */
const hopByHop = new Set(["connection", "proxy-connection", "keep-alive", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade"]);

/** The reason phrase of a refusal; denials.ts reads it back from a command's output. */
export const refusalPhrase = (target: string): string => `Forbidden by the Pi sandbox: ${target} is not an allowed host`;

export class NetworkProxy {
  private readonly sockets = new Set<Socket>();
  private readonly refusals: Refusal[] = [];
  private disposed = false;

  private constructor(
    readonly dir: string,
    readonly socketPath: string,
    private readonly server: Server,
    private readonly options: ProxyOptions,
  ) {}

  /** Listens on `<new 0700 folder>/proxy.sock`. */
  static async start(options: ProxyOptions): Promise<NetworkProxy> {
    const dir = mkdtempSync(join(tmpdir(), "pi-net-"));
    const socketPath = join(dir, "proxy.sock");
    // Absolute-form requests need no Host header (the proxy sets it from the URI).
    const server = http().createServer({ requireHostHeader: false });
    server.maxConnections = options.maxConnections ?? 256;
    const proxy = new NetworkProxy(dir, socketPath, server, options);
    server.on("connection", (socket: Socket) => proxy.track(socket));
    // A failure of the proxy's own closes that connection, never the host.
    server.on("request", (req: IncomingMessage, res: ServerResponse) => void proxy.forward(req, res).catch(() => res.destroy()));
    server.on("connect", (req: IncomingMessage, socket: Socket, head: Buffer) => void proxy.tunnel(req, socket, head).catch(() => socket.destroy()));
    // No WebSocket or other upgrade over plain HTTP: closed.
    server.on("upgrade", (_req: IncomingMessage, socket: Socket) => socket.destroy());
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(socketPath, () => resolve());
      });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    return proxy;
  }

  /** What was refused at or after `since` (ms since the epoch). */
  refusedSince(since: number): Refusal[] {
    return this.refusals.filter((r) => r.at >= since);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private track(socket: Socket): void {
    if (this.disposed) return void socket.destroy();
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
  }

  private refuse(status: number, target: string, reason: string, body: string): Opened {
    this.refusals.push({ at: Date.now(), target, why: body });
    if (this.refusals.length > 100) this.refusals.shift();
    return { status, reason, body };
  }

  /** The checks, in order: the list (else the question), the resolution, the address, the connection. */
  private async open(target: Target): Promise<Opened> {
    const { allowed } = this.options;
    const shown = formatTarget(target);
    const listed = allowed.some((pattern) => matches(pattern, target));
    if (!listed && !(await this.options.decide(target))) {
      return this.refuse(403, shown, refusalPhrase(shown), `${refusalPhrase(shown)}. Blocked by the sandbox's network proxy. To allow it, add "${target.host}" to the setting pi.sandbox.allowedHosts (or start the agent host with --sandbox-allow-host ${target.host}).\n`);
    }
    let addresses: string[];
    try {
      addresses = isIpLiteral(target.host) ? [target.host.replace(/^\[|\]$/g, "")] : (await (this.options.resolve ?? systemResolver)(target.host)).map((a) => a.address);
    } catch (error) {
      return this.refuse(502, shown, "Bad Gateway", `The sandbox's network proxy could not resolve ${target.host}: ${(error as Error).message}\n`);
    }
    // A name reaches public addresses only; a private one only when the request names it itself, listed or allowed.
    const reachable = (address: string) => isPublicAddress(address) || (isIpLiteral(target.host) && canonicalAddress(address) === target.host);
    const usable = addresses.filter(reachable);
    if (usable.length === 0) {
      const list = addresses.join(", ") || "nothing";
      return this.refuse(403, shown, `Forbidden by the Pi sandbox: ${shown} is a private address`, `Forbidden by the Pi sandbox: ${target.host} resolves to ${list}, a loopback, link-local or private address. Only a request that names such an address itself (e.g. 127.0.0.1:8080), listed or allowed, reaches it; a name never does.\n`);
    }
    let lastError = "no address";
    for (const address of usable) {
      try {
        const socket = await (this.options.connect ?? ((a: string, p: number) => this.connect(a, p)))(address, target.port);
        this.track(socket);
        // The address really reached: the one checked, still allowed.
        const reached = socket.remoteAddress ?? "";
        if (canonicalAddress(reached) !== canonicalAddress(address) || !reachable(reached)) {
          socket.destroy();
          return this.refuse(403, shown, "Forbidden by the Pi sandbox", `Forbidden by the Pi sandbox: the connection to ${target.host} reached ${reached}, not the address checked.\n`);
        }
        return { socket };
      } catch (error) {
        lastError = (error as Error).message;
      }
    }
    return this.refuse(502, shown, "Bad Gateway", `The sandbox's network proxy could not connect to ${shown}: ${lastError}\n`);
  }

  private connect(address: string, port: number): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = net().connect({ host: address, port });
      const timer = setTimeout(() => socket.destroy(new Error("connection timed out")), this.options.connectTimeoutMs ?? 15_000);
      socket.once("connect", () => {
        clearTimeout(timer);
        socket.removeListener("error", reject);
        resolve(socket);
      });
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** CONNECT host:port: a tunnel once every check passed. */
  private async tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on("error", () => client.destroy());
    const target = parseAuthority(req.url ?? "");
    const opened = target ? await this.open(target) : { status: 400, reason: "Bad Request", body: "CONNECT needs host:port\n" };
    if (this.disposed || client.destroyed) return void ("socket" in opened && opened.socket.destroy());
    if (!("socket" in opened)) {
      client.end(`HTTP/1.1 ${opened.status} ${opened.reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(opened.body)}\r\nConnection: close\r\n\r\n${opened.body}`);
      return;
    }
    const upstream = opened.socket;
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** A plain request in absolute form (`GET http://host/path`); its Host header is the URI's, whatever the client sent. */
  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, reason: string, body: string) => {
      if (!res.headersSent) res.writeHead(status, reason, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body), connection: "close" });
      res.end(body);
    };
    let url: URL | undefined;
    try {
      url = /^http:\/\//i.test(req.url ?? "") ? new URL(req.url ?? "") : undefined;
    } catch {
      url = undefined;
    }
    const target = url && !url.username && !url.password ? parseAuthority(url.host, 80) : undefined;
    if (!url || !target) return reply(400, "Bad Request", "The sandbox's network proxy takes absolute http:// URIs (https goes through CONNECT).\n");
    const opened = await this.open(target);
    if (!("socket" in opened)) return reply(opened.status, opened.reason, opened.body);
    const socket = opened.socket;
    const headers = forwardable(req.headers);
    headers.host = url.host;
    headers.connection = "close";
    const upstream = http().request({ createConnection: () => socket, method: req.method, path: `${url.pathname}${url.search}`, headers, setHost: false });
    upstream.on("response", (answer: IncomingMessage) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardable(answer.headers));
      answer.pipe(res);
    });
    upstream.on("error", (error) => (res.headersSent ? res.destroy() : reply(502, "Bad Gateway", `The sandbox's network proxy: ${error.message}\n`)));
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  }
}

function forwardable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set(String(headers.connection ?? "").toLowerCase().split(",").map((s) => s.trim()));
  const out: IncomingHttpHeaders = Object.create(null) as IncomingHttpHeaders;
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !hopByHop.has(name) && !named.has(name)) out[name] = value;
  }
  return out;
}

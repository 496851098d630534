/**
 * A `fetch` for the provider SDKs on node:http(s). Node's built-in fetch (undici) pays for the
 * WHATWG machinery on every request: the request body goes through a ReadableStream and is
 * written chunk by chunk, headers are copied several times, and the first request loads and
 * compiles undici itself. A model request is one POST with a string body and a streamed answer,
 * so this does just that on a keep-alive agent and hands back the response with its body read
 * straight from the socket (./response.ts: the part of `Response` the SDKs use, without undici,
 * which alone costs ~13 MB of memory once loaded). Anything else (a `Request` object, a streamed
 * or form body) goes to the built-in fetch unchanged.
 *
 * Errors look like the built-in fetch's, which the SDKs and our classifiers know:
 * `TypeError("fetch failed", { cause })` before a response, `TypeError("terminated", { cause })`
 * when the body breaks off, a DOMException named AbortError when the signal fires.
 */
import type * as http from "node:http";
import type { Readable } from "node:stream";
import { HttpHeaders } from "./headers";
import { checkedProxy, proxyAuthorization, proxyFor, tunnelAgent, withHttpProxy } from "../../../shared/node/http-proxy";
import { HttpResponse } from "./response";

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

const MAX_REDIRECTS = 20;

interface Transport {
  request: typeof http.request;
  agent: http.Agent;
}

const transports = new Map<string, Transport>();

/** node:http / node:https with a keep-alive agent each, loaded on first use. */
function transportFor(protocol: string): Transport {
  let transport = transports.get(protocol);
  if (!transport) {
    const mod = (protocol === "https:" ? require("node:https") : require("node:http")) as typeof http;
    transport = { request: mod.request, agent: new mod.Agent({ keepAlive: true }) };
    transports.set(protocol, transport);
  }
  return transport;
}

function abortError(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name === "AbortError" ? reason : new DOMException("This operation was aborted", "AbortError");
}

function headerRecord(headers: FetchInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (Array.isArray(headers)) for (const [name, value] of headers) out[name!.toLowerCase()] = value!;
  // Headers, undici's or ours (the SDKs build theirs with whichever `Headers` their bundle sees).
  else if (typeof (headers as { forEach?: unknown }).forEach === "function") (headers as Headers).forEach((value, name) => (out[name] = value));
  else for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = String(value);
  return out;
}

function responseHeaders(raw: string[]): HttpHeaders {
  const headers = new HttpHeaders();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/** The decoded body stream (servers may compress even unasked; we ask for identity). */
function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers["content-encoding"] ?? "").toLowerCase().trim();
  if (!encoding || encoding === "identity") return res;
  const zlib = require("node:zlib") as typeof import("node:zlib");
  const decoder = encoding === "br" ? zlib.createBrotliDecompress() : encoding === "deflate" ? zlib.createInflate() : encoding === "gzip" || encoding === "x-gzip" ? zlib.createGunzip() : undefined;
  if (!decoder) return res;
  (require("node:stream") as typeof import("node:stream")).pipeline(res, decoder, () => undefined);
  return decoder;
}

/**
 * The body as byte chunks, read from the socket as the consumer asks (so a slow reader holds the
 * socket back). Failures read as the built-in fetch's: AbortError after the signal, else
 * TypeError("terminated"); `return()` drops the body: the connection goes back to the pool when
 * the message had already arrived whole, else it is closed.
 */
function bodyStream(res: http.IncomingMessage, source: Readable, signal: AbortSignal | undefined, done: () => void): AsyncIterable<Uint8Array> {
  const failure = (error: unknown) => (signal?.aborted ? abortError(signal) : new TypeError("terminated", { cause: error }));
  return {
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      return {
        async next() {
          try {
            const result = await chunks.next();
            if (result.done) done();
            return result;
          } catch (error) {
            done();
            throw failure(error);
          }
        },
        async return() {
          done();
          // A reader that stops at the stream's own end marker ([DONE]) leaves only the message's
          // end: drained, the socket goes back to the keep-alive pool. Anything else is cut off.
          if (!res.complete) res.destroy();
          else if (!res.readableEnded) await new Promise<void>((resolve) => res.once("end", resolve).once("close", resolve).resume());
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** pi's default `httpIdleTimeoutMs`: how long a request may wait for its headers or the next body bytes. */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** Where the request goes: straight to the server, or through HTTP(S)_PROXY (shared/node/http-proxy.ts). */
function routed(url: URL, options: http.RequestOptions, httpProxy: string | undefined): [URL | string, http.RequestOptions] {
  const proxy = proxyFor(url, withHttpProxy(process.env, httpProxy));
  if (!proxy) return [url, options];
  checkedProxy(proxy);
  if (url.protocol === "https:") return [url, { ...options, agent: tunnelAgent(proxy) }];
  const headers = { ...(options.headers as Record<string, string>), host: url.host, ...proxyAuthorization(proxy) };
  // hostname, not host: the URL's own hostname would win over a host option (and reach the target directly).
  return [url.href, { ...options, hostname: proxy.hostname, port: proxy.port || 80, path: url.href, headers }];
}

interface SendOptions {
  signal: AbortSignal | undefined;
  /** 0: no limit. */
  idleTimeoutMs: number;
  /** Over the environment's HTTP(S)_PROXY. */
  httpProxy: string | undefined;
}

function send(url: URL, method: string, headers: Record<string, string>, body: string | Uint8Array | undefined, options: SendOptions, redirects: number): Promise<HttpResponse> {
  const { signal, idleTimeoutMs, httpProxy } = options;
  return new Promise<HttpResponse>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const { request, agent } = transportFor(url.protocol);
    const outgoing: Record<string, string> = { "accept-encoding": "identity", ...headers };
    if (body !== undefined) outgoing["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
    let settled = false;
    const onAbort = () => req.destroy(signal ? (abortError(signal) as Error) : undefined);
    const done = () => signal?.removeEventListener("abort", onAbort);
    let route: ReturnType<typeof routed>;
    try {
      route = routed(url, { method, headers: outgoing, agent }, httpProxy);
    } catch (error) {
      return reject(new TypeError("fetch failed", { cause: error }));
    }
    const req = request(...route, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (location && [301, 302, 303, 307, 308].includes(status) && redirects < MAX_REDIRECTS) {
        res.resume();
        done();
        settled = true;
        const keepBody = status === 307 || status === 308;
        const next = new URL(location, url);
        const nextHeaders = { ...headers };
        if (!keepBody) delete nextHeaders["content-type"];
        if (next.origin !== url.origin) delete nextHeaders.authorization;
        resolve(send(next, keepBody ? method : "GET", nextHeaders, keepBody ? body : undefined, options, redirects + 1));
        return;
      }
      settled = true;
      let stream: AsyncIterable<Uint8Array> | null = null;
      if (method === "HEAD" || status === 204 || status === 304) {
        res.resume();
        done();
      } else stream = bodyStream(res, decoded(res), signal, done);
      resolve(new HttpResponse(stream, status, res.statusMessage ?? "", responseHeaders(res.rawHeaders), url.href));
    });
    req.on("error", (error) => {
      done();
      if (settled) return;
      settled = true;
      reject(signal?.aborted ? abortError(signal) : new TypeError("fetch failed", { cause: error }));
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    if (idleTimeoutMs > 0) req.setTimeout(idleTimeoutMs, () => req.destroy(new Error(`No data from ${url.host} for ${idleTimeoutMs} ms`)));
    req.end(body);
  });
}

/**
 * `fetch` for SDK requests: node:http for plain requests, the built-in fetch for the rest. The
 * answer is an HttpResponse typed as the `Response` the SDKs' option asks for: it has every
 * member they read (provider tests run each SDK through it).
 */
export async function httpFetch(input: FetchInput, init?: FetchInit, idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS, httpProxy?: string): Promise<Response> {
  const body = init?.body;
  const plainBody = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
  const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : undefined;
  // globalThis: in a bundle whose `fetch` is this function (esbuild inject), a bare `fetch` is us.
  if (!url || !plainBody || (url.protocol !== "http:" && url.protocol !== "https:")) return globalThis.fetch(input, init);
  const method = (init?.method ?? "GET").toUpperCase();
  const response = await send(url, method, headerRecord(init?.headers), body ?? undefined, { signal: init?.signal ?? undefined, idleTimeoutMs, httpProxy }, 0);
  return response as unknown as Response;
}

/** A request's HTTP options (StreamOptions' httpIdleTimeoutMs and httpProxy). */
export interface HttpOptions {
  httpIdleTimeoutMs?: number;
  httpProxy?: string;
}

/** The fetch to give an SDK for one request's options. */
export function fetchFor(options: HttpOptions): typeof fetch {
  const idle = options.httpIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const proxy = options.httpProxy;
  return (input, init) => httpFetch(input, init, idle, proxy);
}

/**
 * Injected by esbuild into the provider bundles (see esbuild.mjs): the SDKs' references to these
 * globals become the exports below, so that they never load undici (~13 MB of memory; Node loads
 * it on the first touch of any of these globals).
 *
 * - `fetch`: ours (./fetch.ts). OpenAI's and Anthropic's SDKs are also handed it explicitly;
 *   Google's has no option for it and calls the global.
 * - `Headers`: the SDKs build one per request, so it is ours (./headers.ts).
 * - `Response`: Google's SDK wraps every streamed event in `new Response(text, init)`; a text (or
 *   empty) body gives our HttpResponse, any other body Node's own Response. `instanceof` accepts
 *   both.
 * - `FormData`: the SDKs only test bodies with `instanceof` on the way (uploads, which the host
 *   never sends, construct one): the test reads the object's tag, constructing hands over to Node's.
 */
import { DEFAULT_IDLE_TIMEOUT_MS, httpFetch, type HttpOptions } from "./fetch";
import { HttpHeaders } from "./headers";
import { HttpResponse } from "./response";

export { HttpHeaders as Headers } from "./headers";

let idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS;
let httpProxy: string | undefined;

/** The HTTP options (idle timeout, proxy) of the global `fetch` below, for an SDK that cannot be handed a fetch (Google's). */
export function setGlobalFetchOptions(options: HttpOptions): void {
  idleTimeoutMs = options.httpIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  httpProxy = options.httpProxy;
}

export const fetch: typeof globalThis.fetch = (input, init) => httpFetch(input, init, idleTimeoutMs, httpProxy);

const tagged = (value: unknown, tag: string) => value !== null && typeof value === "object" && Object.prototype.toString.call(value) === `[object ${tag}]`;

function FormDataStandIn(...args: unknown[]): object {
  const Real = globalThis.FormData as unknown as new (...a: unknown[]) => object;
  return new Real(...args);
}
Object.defineProperty(FormDataStandIn, Symbol.hasInstance, { value: (value: unknown) => tagged(value, "FormData") });

interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: ConstructorParameters<typeof HttpHeaders>[0];
}

function ResponseStandIn(body?: unknown, init: ResponseInit = {}): object {
  if (body !== undefined && body !== null && typeof body !== "string") return new globalThis.Response(body as ConstructorParameters<typeof globalThis.Response>[0], init as globalThis.ResponseInit);
  const chunks = typeof body === "string" ? [Buffer.from(body)] : [];
  const source = body === undefined || body === null ? null : (async function* () { yield* chunks; })();
  return new HttpResponse(source, init.status ?? 200, init.statusText ?? "", new HttpHeaders(init.headers), "");
}
Object.defineProperty(ResponseStandIn, Symbol.hasInstance, { value: (value: unknown) => value instanceof HttpResponse || tagged(value, "Response") });

export const FormData = FormDataStandIn as unknown as typeof globalThis.FormData;
export const Response = ResponseStandIn as unknown as typeof globalThis.Response;

/**
 * Injected by esbuild into the provider bundles whose SDKs use our fetch (see esbuild.mjs): their
 * references to these globals become the exports below, so that they never load undici (~13 MB
 * of memory; Node loads it on the first touch of any of these globals).
 *
 * - `Headers`: the SDKs build one per request, so it is ours (./headers.ts).
 * - `FormData`, `Response`: the SDKs only test bodies with `instanceof` on the way (uploads, which
 *   the host never sends, construct them): the test reads the object's tag, constructing one
 *   hands over to Node's own.
 */
export { HttpHeaders as Headers } from "./headers";

type Lazy = "FormData" | "Response";

function lazyGlobal<T>(name: Lazy): T {
  function standIn(...args: unknown[]): object {
    const Real = globalThis[name] as unknown as new (...a: unknown[]) => object;
    return new Real(...args);
  }
  Object.defineProperty(standIn, Symbol.hasInstance, {
    value: (value: unknown) => value !== null && typeof value === "object" && Object.prototype.toString.call(value) === `[object ${name}]`,
  });
  return standIn as unknown as T;
}

export const FormData = lazyGlobal<typeof globalThis.FormData>("FormData");
export const Response = lazyGlobal<typeof globalThis.Response>("Response");

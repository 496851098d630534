import * as path from "node:path";
import type { LlmProvider } from "../provider";
import type { Api } from "../types";

/** Set by esbuild in dist/: providers are then separate files beside the host, in providers/. */
declare const __PI_BUNDLED__: boolean | undefined;

const loaded = new Map<Api, LlmProvider>();

/**
 * Loads a provider on first use, so start-up never pays for an SDK it does not call. In dist/
 * each provider is its own bundle (dist/providers/<api>.js); from source it is the .ts module.
 */
export function loadProvider(api: Api): LlmProvider {
  let provider = loaded.get(api);
  if (!provider) {
    const file = typeof __PI_BUNDLED__ !== "undefined" && __PI_BUNDLED__ ? path.join(__dirname, "providers", `${api}.js`) : path.join(__dirname, api);
    // A computed path: esbuild must not pull the provider into the main bundle.
    const load = require as (id: string) => { provider: LlmProvider };
    provider = load(file).provider;
    loaded.set(api, provider);
  }
  return provider;
}

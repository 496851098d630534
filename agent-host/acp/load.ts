/**
 * The ACP face, loaded only for --mode acp: dist/acp-mode.js beside the host bundle (the face and
 * the ACP SDK), or serve.ts from source. A computed path, so esbuild leaves it out of the host's
 * bundle and --mode rpc never reads it.
 */
import * as path from "node:path";
import type * as Serve from "./serve";

/** Set by esbuild in dist/. */
declare const __PI_BUNDLED__: boolean | undefined;

export function loadAcpMode(): typeof Serve {
  const file = typeof __PI_BUNDLED__ !== "undefined" && __PI_BUNDLED__ ? path.join(__dirname, "acp-mode.js") : path.join(__dirname, "serve");
  return (require as (id: string) => typeof Serve)(file);
}

import * as path from "node:path";

/** Set by esbuild in dist/. */
declare const __PI_BUNDLED__: boolean | undefined;

/**
 * A file the build writes beside the host's bundle (a worker's script, a copied .wasm): beside the
 * bundle when running bundled; from source (tests), the one from the repository's last build in
 * dist/ (a worker thread runs JavaScript, not the sources).
 */
export function builtFile(name: string): string {
  if (typeof __PI_BUNDLED__ !== "undefined" && __PI_BUNDLED__) return path.join(__dirname, name);
  return path.join(__dirname, "..", "..", "dist", name);
}

import * as path from "node:path";

/** Set by esbuild in dist/: the extension runtime is then its own file beside the host. */
declare const __PI_BUNDLED__: boolean | undefined;

type ExtensionRuntime = typeof import("./extension-runtime");
let runtime: ExtensionRuntime | undefined;

/** The module pi would supply for `specifier`, or undefined when Node should resolve it. */
export function virtualModule(specifier: string): object | undefined {
  if (!runtime) {
    const bundled = typeof __PI_BUNDLED__ !== "undefined" && __PI_BUNDLED__;
    // A computed path: esbuild must not pull the runtime (TypeBox in full) into the host's bundle.
    const load = require as (id: string) => ExtensionRuntime;
    runtime = load(bundled ? path.join(__dirname, "extension-runtime.js") : path.join(__dirname, "extension-runtime"));
  }
  return runtime.virtualModule(specifier);
}

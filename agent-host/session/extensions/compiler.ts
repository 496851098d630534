/**
 * Turns an extension's TypeScript (and the relative files it imports) into one CommonJS module
 * text, with esbuild, at load time. Package imports stay `require()` calls (`packages:
 * "external"`), resolved when the module runs: pi's virtual modules first, then Node's
 * resolution from the extension's folder. esbuild resolves the local files itself (`./x.js` for
 * `./x.ts`, folder indexes, JSON, the extension's tsconfig).
 *
 * Two backends, same options, both running esbuild in a child process:
 * - native: the `esbuild` package when it resolves from the host (a development checkout, CI).
 * - wasm: esbuild-wasm's Node API, whose service is esbuild.wasm run by this same runtime
 *   (`process.execPath`: Electron as Node inside VS Code; the package itself would spawn `node`
 *   from the PATH, which VS Code does not promise, so that one call is adjusted when the API is
 *   loaded). The build copies it to `dist/esbuild-wasm/` beside the host: the VSIX carries no
 *   node_modules and is the same for every platform, so it cannot carry a native esbuild binary.
 * `PI_EXTENSION_COMPILER=native|wasm` forces one (tests, diagnostics).
 */
import { readFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";
import { vm } from "../../tools/lazy-node";
import type { BuildOptions, BuildResult } from "esbuild";

/** Set by esbuild in dist/: the wasm copy is then in dist/esbuild-wasm/. */
declare const __PI_BUNDLED__: boolean | undefined;

export type CompilerBackend = "native" | "wasm";

type Options = BuildOptions & { write: false };
interface EsbuildApi {
  build(options: Options): Promise<BuildResult<Options>>;
  stop?(): void | Promise<void>;
}

export interface ExtensionCompiler {
  readonly backend: CompilerBackend;
  /** The CommonJS text of the extension at `entry` (absolute path). */
  compile(entry: string): Promise<string>;
  /** Stops esbuild's service process. */
  dispose(): Promise<void>;
}

const hostRequire = createRequire(__filename);
const bundled = typeof __PI_BUNDLED__ !== "undefined" && __PI_BUNDLED__;

function nativeAvailable(): boolean {
  try {
    hostRequire.resolve("esbuild");
    return true;
  } catch {
    return false;
  }
}

export function pickBackend(env: Readonly<Record<string, string | undefined>> = process.env): CompilerBackend {
  const forced = env.PI_EXTENSION_COMPILER;
  if (forced === "native" || forced === "wasm") return forced;
  return nativeAvailable() ? "native" : "wasm";
}

/** Where esbuild-wasm's service is started (lib/main.js of esbuild-wasm 0.28). */
const SPAWN_NODE = 'return ["node", [path2.join(__dirname, "..", "bin", "esbuild")]];';
const SPAWN_RUNTIME = 'return [process.execPath, [path2.join(__dirname, "..", "bin", "esbuild")]];';

/** esbuild-wasm's Node API, loaded from its own file (its relative paths find bin/ and esbuild.wasm). */
function loadWasmApi(): EsbuildApi {
  const main = bundled ? join(__dirname, "esbuild-wasm", "lib", "main.js") : hostRequire.resolve("esbuild-wasm/lib/main.js");
  const code = readFileSync(main, "utf8");
  if (!code.includes(SPAWN_NODE)) throw new Error(`Unsupported esbuild-wasm in ${main}: its service launch was not found`);
  const wrapper = vm().runInThisContext(Module.wrap(code.replace(SPAWN_NODE, SPAWN_RUNTIME)), { filename: main }) as (
    exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string,
  ) => void;
  const module = { exports: {} };
  wrapper(module.exports, createRequire(main), module, main, dirname(main));
  return module.exports as EsbuildApi;
}

function buildOptions(entry: string): Options {
  return {
    entryPoints: [entry],
    bundle: true,
    packages: "external",
    write: false,
    format: "cjs",
    platform: "node",
    target: "node20",
    logLevel: "silent",
    // CommonJS has no import.meta: give extensions the values they read from it.
    define: { "import.meta.url": "__pi_import_meta_url", "import.meta.filename": "__filename", "import.meta.dirname": "__dirname" },
    banner: { js: 'var __pi_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  };
}

export async function createCompiler(backend: CompilerBackend = pickBackend()): Promise<ExtensionCompiler> {
  const api: EsbuildApi = backend === "native" ? (hostRequire("esbuild") as EsbuildApi) : loadWasmApi();
  return {
    backend,
    async compile(entry) {
      const result = await api.build(buildOptions(entry));
      const output = result.outputFiles[0];
      if (!output) throw new Error(`esbuild produced no output for ${entry}`);
      return output.text;
    },
    async dispose() {
      await api.stop?.();
    },
  };
}

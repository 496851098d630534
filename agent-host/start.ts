/**
 * dist/agent-host.js: the command line's entry. From the second start on, V8 reuses the code it
 * compiled for the host's bundle instead of compiling it again: Node 22.1+ through its own
 * compile cache, older Node through a V8 code cache we keep ourselves (shared/node/code-cache.ts).
 * Both live only in a per-user folder that nobody else can write (checked, see privateCacheDir).
 * NODE_DISABLE_COMPILE_CACHE=1 turns both off. Any failure only costs speed.
 */
import * as nodeModule from "node:module";
import * as path from "node:path";
import { privateCacheDir, runWithCodeCache } from "../shared/node/code-cache";

// `--pool`: sessions in worker threads of one process (agent-host/pool/); the pool's own thread loads none of the host.
const main = path.join(__dirname, process.argv[2] === "--pool" ? "agent-host-pool.js" : "agent-host-main.js");
/** Files apart that the main bundle requires when first needed (esbuild.mjs): cached the same way. */
const FILES_APART = new Set(["./ajv.js", "./yaml.js", "./ignore.js", "./acp-mode.js"]);
const enableCompileCache = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
const cacheDir = process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : privateCacheDir("pi-agent-host");

if (!cacheDir) {
  (require as (id: string) => unknown)(main);
} else if (enableCompileCache) {
  try {
    enableCompileCache(path.join(cacheDir, "node"));
  } catch {
    // no cache this time
  }
  (require as (id: string) => unknown)(main);
} else {
  // At exit the cache also holds the functions compiled while the host ran.
  const { save } = runWithCodeCache(main, cacheDir, { filesApart: FILES_APART, onFileApart: (_file, loaded) => loaded.save && process.once("exit", loaded.save) });
  if (save) process.once("exit", save);
}

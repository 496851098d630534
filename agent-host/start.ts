/**
 * dist/agent-host.js: the command line's entry. From the second start on, V8 reuses the code it
 * compiled for the host's bundle instead of compiling it again: Node 22.1+ through its own
 * compile cache, older Node through a V8 code cache we keep ourselves. Both live in the OS temp
 * folder; NODE_DISABLE_COMPILE_CACHE=1 turns both off. Any failure only costs speed.
 */
import * as fs from "node:fs";
import * as nodeModule from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";

const main = path.join(__dirname, "agent-host-main.js");
/** Files apart that the main bundle requires when first needed (esbuild.mjs): cached the same way. */
const FILES_APART = new Set(["./ajv.js", "./yaml.js", "./ignore.js"]);
const enableCompileCache = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;

if (enableCompileCache || process.env.NODE_DISABLE_COMPILE_CACHE) {
  try {
    enableCompileCache?.();
  } catch {
    // an unwritable temp folder
  }
  (require as (id: string) => unknown)(main);
} else {
  runWithCodeCache(main);
}

/** Runs a CommonJS file as Node would, with V8's code cache from the last run (written at exit). */
function runWithCodeCache(file: string): unknown {
  const source = fs.readFileSync(file, "utf8");
  const stat = fs.statSync(file);
  const key = `${path.basename(file, ".js")}-${process.version}-${process.arch}-${stat.size}-${Math.round(stat.mtimeMs)}`;
  const cacheFile = path.join(os.tmpdir(), "pi-agent-host-code-cache", `${key}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // first run with this build
  }
  const script = new vm.Script(nodeModule.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (!cachedData || script.cachedDataRejected) {
    // At exit the cache also holds the functions compiled while the host ran.
    process.once("exit", () => {
      try {
        fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
        fs.writeFileSync(cacheFile, script.createCachedData());
        pruneCodeCaches(path.dirname(cacheFile));
      } catch {
        // no cache next time
      }
    });
  }
  const exports = {};
  const module = { exports, filename: file, id: file, loaded: false, children: [], paths: [] };
  const run = script.runInThisContext() as (e: object, r: NodeJS.Require, m: object, f: string, d: string) => void;
  const nodeRequire = nodeModule.createRequire(file);
  const apart = new Map<string, unknown>();
  // The files apart go through this cache too (bench:ab skills on Node 20: ~10 ms less CPU at the first skill read).
  const requireHere = Object.assign((id: string): unknown => {
    if (!FILES_APART.has(id)) return nodeRequire(id);
    if (!apart.has(id)) apart.set(id, runWithCodeCache(path.join(path.dirname(file), id)));
    return apart.get(id);
  }, nodeRequire);
  run.call(exports, exports, requireHere, module, file, path.dirname(file));
  return module.exports;
}

/** Each build writes a cache of its own: keep the few most recent (other installed builds' too). */
function pruneCodeCaches(dir: string, keep = 16): void {
  const files = fs.readdirSync(dir).map((name) => ({ file: path.join(dir, name), mtime: fs.statSync(path.join(dir, name)).mtimeMs }));
  files.sort((a, b) => b.mtime - a.mtime);
  for (const { file } of files.slice(keep)) fs.rmSync(file, { force: true });
}

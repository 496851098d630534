/**
 * dist/agent-host.js: the command line's entry. From the second start on, V8 reuses the code it
 * compiled for the host's bundle instead of compiling it again: Node 22.1+ through its own
 * compile cache, older Node through a V8 code cache we keep ourselves. Both live only in a
 * per-user folder that nobody else can write (checked, see privateCacheDir), and our own entries
 * are named by a hash of the source they were made from: V8 checks a cache only against the
 * source's length, so a cache from any other place could run other code inside the host.
 * NODE_DISABLE_COMPILE_CACHE=1 turns both off. Any failure only costs speed.
 */
import * as fs from "node:fs";
import * as nodeModule from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";
import { ownedPrivately } from "../shared/node/private-files";

const main = path.join(__dirname, "agent-host-main.js");
/** Files apart that the main bundle requires when first needed (esbuild.mjs): cached the same way. */
const FILES_APART = new Set(["./ajv.js", "./yaml.js", "./ignore.js", "./acp-mode.js"]);
const enableCompileCache = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
const cacheDir = process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : privateCacheDir();

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
  runWithCodeCache(main, cacheDir);
}

/**
 * `$XDG_CACHE_HOME/pi-agent-host` (else `~/.cache/…`; `%LOCALAPPDATA%` on Windows), made 0700, and
 * used only if it is a real folder owned by this user that no one else may write or read: a folder
 * someone else made first, or one opened to others, means no cache (a planted entry is never read).
 */
function privateCacheDir(): string | undefined {
  try {
    const base = process.platform === "win32" ? process.env.LOCALAPPDATA : process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
    if (!base || !path.isAbsolute(base)) return undefined;
    const dir = path.join(base, "pi-agent-host");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return ownedPrivately(fs.lstatSync(dir)) && fs.lstatSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** The cache file, if it is a private file of ours (checked on the file actually opened). */
function readPrivate(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(fd);
    return stat.isFile() && ownedPrivately(stat) ? fs.readFileSync(fd) : undefined;
  } catch {
    return undefined; // first run with this build
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Runs a CommonJS file as Node would, with V8's code cache from the last run (written at exit). */
function runWithCodeCache(file: string, dir: string): unknown {
  const source = fs.readFileSync(file, "utf8");
  // node:crypto is loaded by the host anyway (session ids); hashing the bundle takes under a millisecond.
  const hash = (require("node:crypto") as typeof import("node:crypto")).createHash("sha256").update(source).digest("hex").slice(0, 32);
  const cacheFile = path.join(dir, `${path.basename(file, ".js")}-${process.version}-${process.arch}-${hash}.bin`);
  const cachedData = readPrivate(cacheFile);
  const script = new vm.Script(nodeModule.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (!cachedData || script.cachedDataRejected) {
    // At exit the cache also holds the functions compiled while the host ran.
    process.once("exit", () => {
      try {
        const temp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: "wx" });
        fs.renameSync(temp, cacheFile);
        pruneCodeCaches(dir);
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
    // Loaders that compute an absolute path beside the bundle (acp/load.ts) name the same files.
    const apartId = path.isAbsolute(id) && path.dirname(id) === path.dirname(file) ? `./${path.basename(id)}` : id;
    if (!FILES_APART.has(apartId)) return nodeRequire(id);
    if (!apart.has(apartId)) apart.set(apartId, runWithCodeCache(path.join(path.dirname(file), apartId), dir));
    return apart.get(apartId);
  }, nodeRequire);
  run.call(exports, exports, requireHere, module, file, path.dirname(file));
  return module.exports;
}

/** Each build writes a cache of its own: keep the few most recent (other installed builds' too). */
function pruneCodeCaches(dir: string, keep = 16): void {
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".bin"))
    .map((name) => ({ file: path.join(dir, name), mtime: fs.statSync(path.join(dir, name)).mtimeMs }));
  files.sort((a, b) => b.mtime - a.mtime);
  for (const { file } of files.slice(keep)) fs.rmSync(file, { force: true });
}

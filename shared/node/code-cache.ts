/**
 * Running a bundle with V8's code cache from an earlier run, so that V8 deserializes the code it
 * compiled then instead of compiling it again (the host's entry, and the extension's: a 1.3 MB
 * bundle compiles in ~39 ms and loads from its cache in ~4). The cache lives only in a per-user
 * folder that nobody else can write or read (checked on the folder and on each file opened), and
 * each entry is named by a hash of the source it was made from: V8 checks a cache only against
 * the source's length, so a cache from any other place could run other code in the process.
 * Any failure only costs speed.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as nodeModule from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";
import { ownedPrivately } from "./private-files";

/**
 * `$XDG_CACHE_HOME/<name>` (else `~/.cache/<name>`; `%LOCALAPPDATA%\<name>` on Windows), made 0700,
 * and used only if it is a real folder owned by this user that no one else may write or read: a
 * folder someone else made first, or one opened to others, means no cache (a planted entry is never read).
 */
export function privateCacheDir(name: string): string | undefined {
  try {
    const base = process.platform === "win32" ? process.env.LOCALAPPDATA : process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
    if (!base || !path.isAbsolute(base)) return undefined;
    const dir = path.join(base, name);
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

export interface CachedRun {
  /** What the file exported (its `module.exports`). */
  exports: unknown;
  /**
   * Writes the cache for the next run, when there was none or V8 refused it (undefined otherwise).
   * The later it runs, the more of the functions compiled while the program ran it holds.
   */
  save: (() => void) | undefined;
  /** Whether V8 took a cache from an earlier run ("taken"), found none ("none") or refused the one it found ("rejected"). */
  cache: "taken" | "none" | "rejected";
}

export interface CodeCacheOptions {
  /** Files beside the bundle that it requires when first needed (`./ajv.js`): run through the cache too. */
  filesApart?: ReadonlySet<string>;
  /**
   * Called when a file apart is first loaded, with its cache's state and the write of its cache
   * when it needs one: the host writes them at exit, the extension a while after the load (never
   * at exit: the extension host is not ours to hold up). Without it, files apart write no cache.
   */
  onFileApart?: (file: string, loaded: CachedRun) => void;
}

/** Runs a CommonJS file as Node would, with V8's code cache from an earlier run. */
export function runWithCodeCache(file: string, dir: string, options: CodeCacheOptions = {}): CachedRun {
  // The bytes are hashed as read: hashing the decoded string would encode it to UTF-8 again
  // (a few milliseconds for a megabyte, more when one non-ASCII character makes it a two-byte string).
  const bytes = fs.readFileSync(file);
  const hash = crypto.createHash("sha256").update(bytes).digest("hex").slice(0, 32);
  const source = bytes.toString("utf8");
  const cacheFile = path.join(dir, `${path.basename(file, ".js")}-${process.version}-${process.arch}-${hash}.bin`);
  const cachedData = readPrivate(cacheFile);
  const script = new vm.Script(nodeModule.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const save =
    !cachedData || script.cachedDataRejected
      ? () => {
          try {
            const temp = `${cacheFile}.${process.pid}.tmp`;
            fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: "wx" });
            fs.renameSync(temp, cacheFile);
            pruneCodeCaches(dir);
          } catch {
            // no cache next time
          }
        }
      : undefined;
  const exports = {};
  const module = { exports, filename: file, id: file, loaded: false, children: [], paths: [] };
  const run = script.runInThisContext() as (e: object, r: NodeJS.Require, m: object, f: string, d: string) => void;
  const nodeRequire = nodeModule.createRequire(file);
  const apart = new Map<string, unknown>();
  const filesApart = options.filesApart ?? new Set<string>();
  const requireHere = Object.assign((id: string): unknown => {
    // Loaders that compute an absolute path beside the bundle (acp/load.ts) name the same files.
    const apartId = path.isAbsolute(id) && path.dirname(id) === path.dirname(file) ? `./${path.basename(id)}` : id;
    if (!filesApart.has(apartId)) return nodeRequire(id);
    if (!apart.has(apartId)) {
      const loaded = runWithCodeCache(path.join(path.dirname(file), apartId), dir, options);
      options.onFileApart?.(apartId, loaded);
      apart.set(apartId, loaded.exports);
    }
    return apart.get(apartId);
  }, nodeRequire);
  run.call(exports, exports, requireHere, module, file, path.dirname(file));
  return { exports: module.exports, save, cache: !cachedData ? "none" : script.cachedDataRejected ? "rejected" : "taken" };
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

/**
 * What the context loaders share: where a resource came from (`SourceInfo`, as pi 0.87.1 reports
 * it in `get_commands`), the diagnostics they collect instead of throwing, and small sync
 * file-system helpers. Everything here is read once at startup (and on reload), so it is sync.
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { readRegularText } from "../../../shared/node/regular-file";
import { homedir } from "node:os";
import { isAbsolute, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The project configuration folder inside a working directory (pi's CONFIG_DIR_NAME). */
export const PROJECT_DIR_NAME = ".pi";

/**
 * Where a skill or prompt template came from. Values pi 0.87.1 sends:
 * auto-discovered `{source:"auto", scope:"user"|"project", baseDir: agent dir | <cwd>/.pi | .agents dir}`;
 * `--skill` / `--prompt-template` paths `{source:"local", scope:"temporary", baseDir: folder of the file}`.
 * `origin` is always "top-level" here (packages, which pi marks "package", are not loaded by us).
 */
export interface SourceInfo {
  path: string;
  source: string;
  scope: "user" | "project" | "temporary";
  origin: "top-level" | "package";
  baseDir?: string;
}

/** A problem found while loading; loading goes on. `collision`: a later resource lost to an earlier one by name. */
export interface ResourceDiagnostic {
  type: "warning" | "error" | "collision";
  message: string;
  path: string;
  collision?: { resourceType: "skill" | "prompt"; name: string; winnerPath: string; loserPath: string };
}

/** pi's agent dir: `$PI_CODING_AGENT_DIR` (with `~` expanded) or `~/.pi/agent`. */
export function resolveAgentDir(env: Readonly<Record<string, string | undefined>>, homeDir: string = homedir()): string {
  const fromEnv = env.PI_CODING_AGENT_DIR;
  return fromEnv ? resolveUserPath(fromEnv, homeDir, homeDir) : join(homeDir, PROJECT_DIR_NAME, "agent");
}

/** A path given by the user (CLI option, env): trimmed, `~` expanded, `file://` decoded, resolved against `baseDir`. */
export function resolveUserPath(input: string, baseDir: string, homeDir: string = homedir()): string {
  let path = input.trim();
  if (path === "~") path = homeDir;
  else if (path.startsWith("~/")) path = join(homeDir, path.slice(2));
  else if (path.startsWith("file://")) path = fileURLToPath(path);
  return isAbsolute(path) ? resolve(path) : resolve(baseDir, path);
}

/** True when `target` is `root` or lies below it (both absolute). */
export function isUnder(target: string, root: string): boolean {
  const r = resolve(root);
  const t = resolve(target);
  return t === r || t.startsWith(r.endsWith(sep) ? r : r + sep);
}

/** The real path, or the path itself when it cannot be resolved. */
export function canonicalPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * UTF-8 text without a byte-order mark. Throws like readFileSync, and for what is not a regular
 * file or is over 16 MB: a repository's AGENTS.md (loaded whatever the trust) can be a symlink to
 * /dev/zero or a FIFO.
 */
export function readText(path: string): string {
  return stripBom(readRegularText(path));
}

export interface DirEntry {
  name: string;
  path: string;
  isFile: boolean;
  isDirectory: boolean;
}

/**
 * Entries of a folder sorted by name (byte order, as libuv's scandir returns them to pi), with
 * symbolic links followed; broken links are left out. A missing or unreadable folder is empty.
 */
export function listDir(dir: string): DirEntry[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const entries: DirEntry[] = [];
  for (const name of names.sort(byteOrder)) {
    const path = join(dir, name);
    try {
      const stats = statSync(path);
      entries.push({ name, path, isFile: stats.isFile(), isDirectory: stats.isDirectory() });
    } catch {
      // broken symbolic link or vanished entry
    }
  }
  return entries;
}

export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}


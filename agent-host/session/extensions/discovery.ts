/**
 * Where extensions come from, in pi 0.87.1's order: the project's `.pi/extensions/` (only when
 * the project is trusted: `--approve`), the user's `<agentDir>/extensions/`, then each `-e path`.
 * `--no-extensions` skips the first two; explicit `-e` paths still load. In a folder, a file
 * `*.ts`/`*.js` is an extension, and so is a subfolder with a `package.json` naming
 * `pi.extensions`, or else with an `index.ts`/`index.js`. No deeper recursion.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { PROJECT_DIR_NAME, type SourceInfo } from "../context/resources";

export interface ExtensionSource {
  /** Absolute path of the entry file (what pi reports as extensionPath). */
  path: string;
  sourceInfo: SourceInfo;
}

export interface DiscoveryOptions {
  cwd: string;
  agentDir: string;
  /** The project is trusted (`--approve`): its `.pi/extensions/` loads. */
  projectTrusted: boolean;
  /** `--no-extensions`: skip discovery; explicit paths still load. */
  noExtensions: boolean;
  /** `-e` paths, as given (relative to cwd). */
  explicit: readonly string[];
}

const isExtensionFile = (name: string) => name.endsWith(".ts") || name.endsWith(".js");

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Entries a folder declares: `package.json` `pi.extensions`, else `index.ts`, else `index.js`. */
function folderEntries(dir: string): string[] | undefined {
  const manifest = join(dir, "package.json");
  if (existsSync(manifest)) {
    try {
      const pi = (JSON.parse(readFileSync(manifest, "utf8")) as { pi?: { extensions?: unknown } }).pi;
      const declared = Array.isArray(pi?.extensions) ? pi.extensions.filter((p): p is string => typeof p === "string") : [];
      const found = declared.map((p) => resolve(dir, p)).filter(isFile);
      if (found.length) return found;
    } catch {
      // an unreadable manifest falls back to the index file
    }
  }
  for (const index of ["index.ts", "index.js"]) if (isFile(join(dir, index))) return [join(dir, index)];
  return undefined;
}

/** Extensions directly in `dir` (files) and one level down (folders with an entry). */
function scanFolder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    if (isExtensionFile(name) && isFile(path)) return [path];
    return isDirectory(path) ? (folderEntries(path) ?? []) : [];
  });
}

export function discoverExtensions(options: DiscoveryOptions): ExtensionSource[] {
  const found: ExtensionSource[] = [];
  const seen = new Set<string>();
  const add = (paths: string[], info: Omit<SourceInfo, "path">) => {
    for (const path of paths) {
      if (seen.has(path)) continue;
      seen.add(path);
      found.push({ path, sourceInfo: { path, ...info } });
    }
  };
  if (!options.noExtensions) {
    const projectDir = join(options.cwd, PROJECT_DIR_NAME);
    if (options.projectTrusted) add(scanFolder(join(projectDir, "extensions")), { source: "auto", scope: "project", origin: "top-level", baseDir: projectDir });
    add(scanFolder(join(options.agentDir, "extensions")), { source: "auto", scope: "user", origin: "top-level", baseDir: options.agentDir });
  }
  for (const given of options.explicit) {
    const path = resolve(options.cwd, given);
    const paths = isDirectory(path) ? (folderEntries(path) ?? scanFolder(path)) : [path];
    add(paths, { source: "cli", scope: "temporary", origin: "top-level" });
  }
  return found;
}

/**
 * Pi's project trust (pi 0.87 / 1.5 `docs/security.md`): a folder's protected resources
 * (`.pi/extensions`, `.pi/settings.json`, ...: code that runs or settings that change the agent)
 * load only once the folder is trusted. Decisions live in `<agentDir>/trust.json`, keyed by
 * canonical folder paths, the nearest folder (the cwd or a parent) deciding; the file is pi's
 * own, so a decision made in the editor holds for the `pi` CLI and the other way round.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isRecord, parseForeignJson } from "../foreign-json";
import { readRegularText } from "./regular-file";

/** The two answers to the trust question, the same wherever it is asked (the editor, the host at first read). */
export const TRUST_AND_LOAD = "Trust and Load";
export const DONT_LOAD = "Don't Load";

/** Entries of `<cwd>/.pi/` that need a trust decision (pi 1.5.2's list; a bare `.pi/` does not). */
const PROTECTED_PI_ENTRIES = ["settings.json", "mcp.json", "extensions", "skills", "prompts", "themes", "SYSTEM.md", "APPEND_SYSTEM.md"];
/** How many files of one protected folder are listed before "... and N more". */
const LISTED_PER_FOLDER = 20;

export type ProjectTrustDefault = "ask" | "always" | "never";

export interface SavedTrust {
  /** The folder the decision was saved for (the cwd or a parent). */
  folder: string;
  trusted: boolean;
}

const canonical = (dir: string): string => {
  const resolved = path.resolve(dir);
  try {
    return fs.realpathSync(resolved);
  } catch {
    return resolved;
  }
};

/** The protected resources found from `cwd`, as absolute paths (folders as they are, not their files). */
export function protectedResources(cwd: string, homeDir: string): string[] {
  const dir = canonical(cwd);
  const found = PROTECTED_PI_ENTRIES.map((entry) => path.join(dir, ".pi", entry)).filter((p) => fs.existsSync(p));
  const userSkills = path.join(canonical(homeDir), ".agents", "skills");
  for (let current = dir; ; current = path.dirname(current)) {
    const skills = path.join(current, ".agents", "skills");
    if (skills !== userSkills && fs.existsSync(skills)) found.push(skills);
    if (path.dirname(current) === current) break;
  }
  return found;
}

/** What would load, for the question the user answers: each protected file, a folder's files listed (names raw: the display escapes them). */
export function describeResources(resources: string[], cwd: string): string[] {
  const shown = (p: string) => (p.startsWith(canonical(cwd) + path.sep) ? path.relative(canonical(cwd), p) : p);
  return resources.flatMap((resource) => {
    let files: string[];
    try {
      files = fs.statSync(resource).isDirectory() ? listFiles(resource) : [];
    } catch {
      files = [];
    }
    if (files.length === 0) return [shown(resource)];
    const listed = files.slice(0, LISTED_PER_FOLDER).map(shown);
    return files.length > LISTED_PER_FOLDER ? [...listed, `... and ${files.length - LISTED_PER_FOLDER} more in ${shown(resource)}`] : listed;
  });
}

function listFiles(dir: string, depth = 0): string[] {
  if (depth > 3) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full, depth + 1) : [full];
  });
}

/** Pi's agent directory: `PI_CODING_AGENT_DIR` (`~` expanded), else `~/.pi/agent`. */
export function piAgentDir(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const fromEnv = env.PI_CODING_AGENT_DIR;
  if (!fromEnv) return path.join(homeDir, ".pi", "agent");
  return fromEnv === "~" ? homeDir : fromEnv.startsWith("~/") ? path.join(homeDir, fromEnv.slice(2)) : fromEnv;
}

export function trustFile(agentDir: string): string {
  return path.join(agentDir, "trust.json");
}

/**
 * trust.json through the foreign-JSON door: null-prototype data, so no key (a folder path) can
 * reach a prototype; a `__proto__`-like key is never a folder and is dropped. A value that is not
 * a decision makes the whole file invalid (it throws): trust fails closed.
 */
function readStore(file: string): Record<string, boolean | null> {
  return parseStore(file, fs.existsSync(file) ? readRegularText(file) : undefined);
}

function parseStore(file: string, text: string | undefined): Record<string, boolean | null> {
  const store = Object.create(null) as Record<string, boolean | null>;
  if (text === undefined) return store;
  const read = parseForeignJson(text);
  if (!read.ok) throw new Error(`Invalid trust store ${file}: ${read.error}`);
  const parsed = read.value;
  if (!isRecord(parsed)) throw new Error(`Invalid trust store ${file}: expected an object`);
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== true && value !== false && value !== null) throw new Error(`Invalid trust store ${file}: ${JSON.stringify(key)} must be true, false or null`);
    store[key] = value;
  }
  return store;
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.promises.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The decision saved for `cwd` or its nearest parent; undefined when none (a broken file throws). */
export function savedTrust(agentDir: string, cwd: string): SavedTrust | undefined {
  const store = readStore(trustFile(agentDir));
  for (let current = canonical(cwd); ; current = path.dirname(current)) {
    const decision = store[current];
    if (decision === true || decision === false) return { folder: current, trusted: decision };
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * Saves a decision for `folder` under pi's lock: `trust.json.lock`, a directory made by
 * proper-lockfile with pi's options, so the editor, our host and the pi CLI saving at once each
 * keep their decision. Waiting for the lock never blocks the thread (the extension host is shared
 * with every other extension).
 */
export async function saveTrust(agentDir: string, folder: string, trusted: boolean): Promise<void> {
  const file = trustFile(agentDir);
  await fs.promises.mkdir(agentDir, { recursive: true, mode: 0o700 });
  const key = canonical(folder);
  await withTrustLock(agentDir, file, async () => {
    const store = parseStore(file, await readIfExists(file));
    store[key] = trusted;
    const sorted = Object.fromEntries(Object.keys(store).sort().map((name) => [name, store[name]]));
    await fs.promises.writeFile(file, `${JSON.stringify(sorted, null, 2)}\n`, { mode: 0o600 });
  });
}

/** `defaultProjectTrust` of the user's settings (never a project's): "ask" unless set. */
export function defaultProjectTrust(agentDir: string): ProjectTrustDefault {
  try {
    const read = parseForeignJson(readRegularText(path.join(agentDir, "settings.json")));
    const value = read.ok && isRecord(read.value) ? read.value.defaultProjectTrust : undefined;
    return value === "always" || value === "never" ? value : "ask";
  } catch {
    return "ask";
  }
}

/**
 * Pi's order without a prompt (print, JSON and RPC modes): an explicit `--approve`/`--no-approve`,
 * else nothing to protect (trusted), else the nearest saved decision, else `defaultProjectTrust`
 * ("always" loads; "ask" and "never" do not).
 */
export function resolveProjectTrust(override: boolean | undefined, cwd: string, agentDir: string, homeDir: string): boolean {
  if (override !== undefined) return override;
  if (protectedResources(cwd, homeDir).length === 0) return true;
  const saved = savedTrust(agentDir, cwd);
  if (saved) return saved.trusted;
  return defaultProjectTrust(agentDir) === "always";
}

/** proper-lockfile, loaded with the first decision saved (it is not needed to start). */
const loadLockfile = (): typeof import("proper-lockfile") => require("proper-lockfile") as typeof import("proper-lockfile");

/**
 * Runs `work` holding pi's trust lock (pi 0.87.1 `trust-manager.js`: `lockfilePath` `trust.json.lock`,
 * proper-lockfile's 10 s staleness, its mtime kept fresh while held). Pi tries 10 times 20 ms
 * apart; we wait a little longer (up to ~2 s) since we wait without blocking.
 */
async function withTrustLock(agentDir: string, file: string, work: () => Promise<void>): Promise<void> {
  let release: () => Promise<void>;
  try {
    release = await loadLockfile().lock(agentDir, { realpath: false, lockfilePath: `${file}.lock`, retries: { retries: 40, minTimeout: 20, maxTimeout: 60, factor: 1.2 } });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") throw new Error(`The trust store is locked (${file}.lock)`);
    throw error;
  }
  try {
    await work();
  } finally {
    await release();
  }
}

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
  const store = Object.create(null) as Record<string, boolean | null>;
  if (!fs.existsSync(file)) return store;
  const read = parseForeignJson(fs.readFileSync(file, "utf8"));
  if (!read.ok) throw new Error(`Invalid trust store ${file}: ${read.error}`);
  const parsed = read.value;
  if (!isRecord(parsed)) throw new Error(`Invalid trust store ${file}: expected an object`);
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== true && value !== false && value !== null) throw new Error(`Invalid trust store ${file}: ${JSON.stringify(key)} must be true, false or null`);
    store[key] = value;
  }
  return store;
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

/** Saves a decision for `folder` under pi's lock (`trust.json.lock`, a directory, as proper-lockfile makes it). */
export function saveTrust(agentDir: string, folder: string, trusted: boolean): void {
  const file = trustFile(agentDir);
  fs.mkdirSync(agentDir, { recursive: true, mode: 0o700 });
  withLock(`${file}.lock`, () => {
    const store = readStore(file);
    store[canonical(folder)] = trusted;
    const sorted = Object.fromEntries(Object.keys(store).sort().map((key) => [key, store[key]]));
    fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`, { mode: 0o600 });
  });
}

/** `defaultProjectTrust` of the user's settings (never a project's): "ask" unless set. */
export function defaultProjectTrust(agentDir: string): ProjectTrustDefault {
  try {
    const read = parseForeignJson(fs.readFileSync(path.join(agentDir, "settings.json"), "utf8"));
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

const STALE_LOCK_MS = 10_000;

function withLock(lock: string, work: () => void): void {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) fs.rmSync(lock, { recursive: true, force: true });
      else if (attempt >= 50) throw new Error(`The trust store is locked (${lock})`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

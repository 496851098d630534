/**
 * Where MCP sign-ins live: `<agentDir>/mcp-auth.json`, as Pi 1.x keeps them (docs/mcp.md), so a
 * sign-in done by pi serves our host and the reverse. One entry per server, keyed by its
 * namespace and URL (`mcp__<name>|<url>`; Pi's older key, the URL alone, is taken over on first
 * read), holding the registered client, the tokens and their expiry. The file and its folder are
 * the user's alone (0600 / 0700), written whole through a temp file and a rename.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../../shared/node/private-files";
import { mcpNamespace } from "../exposure";

/** One server's OAuth state, in Pi's shape (unknown keys kept as they are). */
export interface McpAuthState {
  serverUrl: string;
  clientInformation?: Record<string, unknown> & { client_id: string; redirect_uris?: string[] };
  tokens?: Record<string, unknown> & { access_token: string; token_type: string; refresh_token?: string };
  /** Epoch ms the access token expires at. */
  tokensExpireAt?: number;
  discovery?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The store of one server: what its connection and its sign-in read and write. */
export interface McpAuthSlot {
  load(): McpAuthState;
  update(change: (state: McpAuthState) => McpAuthState): void;
  /** Removes the server's state; whether there was any. */
  remove(): boolean;
}

export const MCP_AUTH_FILE = "mcp-auth.json";

export function mcpAuthKeys(name: string, serverUrl: string): { key: string; legacyKey: string } {
  const legacyKey = String(new URL(serverUrl));
  return { key: `${mcpNamespace(name)}|${legacyKey}`, legacyKey };
}

type States = Record<string, McpAuthState>;

/**
 * The file's text, or "" when there is none. Not through a symbolic link, and only a file of this
 * user's: tokens planted by someone else (or a link to their file) are not sent anywhere.
 */
function readOwn(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "";
    if (code === "ELOOP") throw new Error(`${file} is a symbolic link; refused (replace it with the file itself, or remove it and sign in again)`);
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${file} is not a regular file; refused`);
    if (typeof process.getuid === "function" && stat.uid !== process.getuid()) throw new Error(`${file} belongs to another user (uid ${stat.uid}); refused`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

function read(file: string): States {
  const text = readOwn(file);
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON; fix or remove it, then sign in again`);
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as States) : {};
}

/** proper-lockfile, loaded with the first OAuth server's first read (start-up does not need it). */
const loadLockfile = (): typeof import("proper-lockfile") => require("proper-lockfile") as typeof import("proper-lockfile");
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `work` holding pi's lock on the file (pi 1.5.2's FileAuthStorageBackend: proper-lockfile's
 * `<file>.lock`, taken synchronously, 10 tries 20 ms apart), so a read-change-write by pi and one
 * by our host never interleave and neither loses the other's server.
 */
function withFileLock<T>(file: string, work: () => T): T {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const lockfile = loadLockfile();
  let release: (() => void) | undefined;
  for (let attempt = 1; !release; attempt++) {
    try {
      // pi locks the file's real path; the file itself is never a link here (readOwn), so its folder's real path is enough.
      release = lockfile.lockSync(file, { realpath: false, lockfilePath: `${join(realpathSync(dirname(file)), basename(file))}.lock` });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
      if (attempt === 10) throw new Error(`${file} is locked by another process (its .lock); try again`);
      Atomics.wait(pause, 0, 0, 20);
    }
  }
  try {
    return work();
  } finally {
    release();
  }
}

function write(file: string, states: States): void {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(states, null, 2)}\n`, { mode: PRIVATE_FILE_MODE, flag: "wx" });
    renameSync(temp, file);
    // A file pi created with a wider mode is narrowed too.
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

export function mcpAuthSlot(agentDir: string, name: string, serverUrl: string): McpAuthSlot {
  const file = join(agentDir, MCP_AUTH_FILE);
  const { key, legacyKey } = mcpAuthKeys(name, serverUrl);
  const normalizedUrl = legacyKey;
  // State stored for another URL under this key (the file edited by hand) is not this server's.
  const own = (state: McpAuthState | undefined): McpAuthState => (state && state.serverUrl === normalizedUrl ? state : { serverUrl: normalizedUrl });
  return {
    load() {
      return withFileLock(file, () => {
        const states = read(file);
        if (states[key] || !states[legacyKey]) return own(states[key]);
        states[key] = states[legacyKey]!;
        delete states[legacyKey];
        write(file, states);
        return own(states[key]);
      });
    },
    update(change) {
      withFileLock(file, () => {
        const states = read(file);
        states[key] = change(own(states[key]));
        write(file, states);
      });
    },
    remove() {
      return withFileLock(file, () => {
        const states = read(file);
        const stored = key in states ? key : legacyKey in states ? legacyKey : undefined;
        if (!stored) return false;
        delete states[stored];
        write(file, states);
        return true;
      });
    },
  };
}

/** Tokens as the SDK hands them (a token response), stored with their expiry as Pi keeps it. */
export function storeTokens(slot: McpAuthSlot, tokens: NonNullable<McpAuthState["tokens"]> & { expires_in?: unknown }): void {
  const expiresAt = typeof tokens.expires_in === "number" ? Date.now() + tokens.expires_in * 1000 : undefined;
  slot.update((state) => {
    const next: McpAuthState = { ...state, tokens };
    if (expiresAt === undefined) delete next.tokensExpireAt;
    else next.tokensExpireAt = expiresAt;
    return next;
  });
}

/**
 * Where MCP sign-ins live: `<agentDir>/mcp-auth.json`, as Pi 1.x keeps them (docs/mcp.md), so a
 * sign-in done by pi serves our host and the reverse. One entry per server, keyed by its
 * namespace and URL (`mcp__<name>|<url>`; Pi's older key, the URL alone, is taken over on first
 * read), holding the registered client, the tokens and their expiry. The file and its folder are
 * the user's alone (0600 / 0700), written whole through a temp file and a rename.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
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

function read(file: string): States {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON; fix or remove it, then sign in again`);
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as States) : {};
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
      const states = read(file);
      if (states[key] || !states[legacyKey]) return own(states[key]);
      states[key] = states[legacyKey]!;
      delete states[legacyKey];
      write(file, states);
      return own(states[key]);
    },
    update(change) {
      const states = read(file);
      states[key] = change(own(states[key]));
      write(file, states);
    },
    remove() {
      const states = read(file);
      const stored = key in states ? key : legacyKey in states ? legacyKey : undefined;
      if (!stored) return false;
      delete states[stored];
      write(file, states);
      return true;
    },
  };
}

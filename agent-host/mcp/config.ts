/**
 * The MCP servers a host connects to, as Pi reads them (docs/mcp.md): the user's
 * `<agentDir>/mcp.json`, then a trusted project's `.pi/mcp.json` over it. A project entry
 * replaces the user's entry of the same name, except one without `command`, `url` and `type`:
 * that one changes only `enabled`, `exposure` and `toolExposure` of the user's server. Every
 * problem is reported and skips only its own entry.
 */
import * as os from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { SchemaValidator } from "../../shared/foreign-json";
import { readForeignFile } from "../../shared/node/foreign-file";
import { createAjv, precompiledValidator, validatorOptions } from "../../shared/protocol/ajv";
import { McpJsonFile } from "./config-schema";
import { normalizeExposure, type Exposure } from "./exposure";
import { checkCallbackUrl } from "../../shared/mcp-oauth-url";
import { errorText } from "../../shared/error-text";

type Entry = {
  type?: string; command?: string; args?: string[]; env?: Record<string, string>; cwd?: string; url?: string;
  headers?: Record<string, string>; oauth?: OAuthEntry; timeout?: number; enabled?: boolean; exposure?: string; toolExposure?: Record<string, string>; description?: string;
};
type OAuthEntry = { clientId?: string; clientSecret?: string; callbackPort?: number; callbackUrl?: string; scope?: string; clientName?: string; clientRegistration?: string; authServerMetadataUrl?: string };
type McpJson = { mcpServers?: Record<string, Entry> };

export interface McpServerConfig {
  name: string;
  /** Which file defines it: "user" or "project" (a project override of a user entry counts as project); "client": an ACP client passed it. */
  source: "user" | "project" | "client" | "vscode";
  transport: "stdio" | "http";
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  /** Set for an HTTP server without an Authorization header: it may ask for an OAuth sign-in. */
  oauth?: McpOAuthSettings;
  /** Per request; progress notifications reset it. */
  timeoutMs: number;
  enabled: boolean;
  exposure: Exposure;
  toolExposure: Record<string, Exposure>;
  description?: string;
}

/** What a sign-in uses of Pi's `oauth` key (the secret with `${VAR}` expanded). */
export interface McpOAuthSettings {
  clientId?: string;
  clientSecret?: string;
  callbackPort?: number;
  /** A loopback http URL; its port, when it has none, is callbackPort's or a free one. */
  callbackUrl?: string;
  scope?: string;
  clientName?: string;
  /** Pi's `auto` (default) / `dcr` / `cimd`: this host has no Client ID Metadata Document, so `cimd` is refused at sign-in. */
  clientRegistration?: "auto" | "dcr" | "cimd";
}

export interface LoadedMcpConfig {
  servers: McpServerConfig[];
  problems: string[];
}

export const DEFAULT_TIMEOUT_MS = 60_000;
const NAME = /^[A-Za-z0-9_-]+$/;

let validate: SchemaValidator | undefined;
function mcpValidator(): SchemaValidator {
  return (validate ??= precompiledValidator("mcp.json") ?? createAjv(validatorOptions).compile(McpJsonFile));
}

function readMcpFile(file: string, problems: string[]): Record<string, Entry> {
  return { ...readForeignFile<McpJson>(file, mcpValidator(), problems).mcpServers };
}

/** `${NAME}` replaced by the environment's value (empty when unset); `!command` values are not run by this host. */
function expand(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? "");
}

function expandAll(values: Record<string, string> | undefined, env: NodeJS.ProcessEnv, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (value.startsWith("!")) throw new Error(`${what} ${key}: \`!command\` values are not supported by this host; use \${VAR}`);
    out[key] = expand(value, env);
  }
  return out;
}

function oauthSettings(entry: OAuthEntry | undefined, env: NodeJS.ProcessEnv): McpOAuthSettings {
  if (!entry) return {};
  if (entry.clientSecret?.startsWith("!")) throw new Error("oauth.clientSecret: `!command` values are not supported by this host; use ${VAR}");
  if (entry.callbackUrl !== undefined) checkCallbackUrl(entry.callbackUrl);
  const { clientId, clientSecret, callbackPort, callbackUrl, scope, clientName, clientRegistration } = entry;
  return {
    ...(clientId !== undefined ? { clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret: expand(clientSecret, env) } : {}),
    ...(callbackPort !== undefined ? { callbackPort } : {}),
    ...(callbackUrl !== undefined ? { callbackUrl } : {}),
    ...(scope !== undefined ? { scope } : {}),
    ...(clientName !== undefined ? { clientName } : {}),
    ...(clientRegistration === "auto" || clientRegistration === "dcr" || clientRegistration === "cimd" ? { clientRegistration } : {}),
  };
}

const home = (value: string): string => (value === "~" ? os.homedir() : value.startsWith("~/") ? join(os.homedir(), value.slice(2)) : value);

function toServer(name: string, entry: Entry, source: McpServerConfig["source"], where: { cwd: string; env: NodeJS.ProcessEnv }): McpServerConfig {
  if (!NAME.test(name)) throw new Error("server names may contain only letters, digits, _ and -");
  const type = entry.type;
  if (type === "sse") throw new Error("the SSE transport is not supported; use the server's streamable HTTP endpoint (often /mcp)");
  if (type !== undefined && type !== "stdio" && type !== "http" && type !== "streamable-http") throw new Error(`type must be stdio, http or streamable-http, not ${type}`);
  const transport = type === "stdio" || (type === undefined && entry.command !== undefined) ? "stdio" : "http";
  if (transport === "stdio" && !entry.command) throw new Error("a stdio server needs `command`");
  if (transport === "http" && !entry.url) throw new Error("an HTTP server needs `url`");
  if (entry.command !== undefined && entry.url !== undefined) throw new Error("give either `command` or `url`, not both");
  if (transport === "http") {
    const url = new URL(entry.url!);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`url must be http(s): ${entry.url}`);
  }
  const exposure = normalizeExposure(entry.exposure) ?? "codemode";
  const toolExposure = Object.fromEntries(Object.entries(entry.toolExposure ?? {}).flatMap(([k, v]) => {
    const e = normalizeExposure(v);
    return e ? [[k, e]] : [];
  }));
  const headers = expandAll(entry.headers, where.env, "header");
  // OAuth applies to HTTP servers without an Authorization header (Pi's rule).
  const oauth = transport === "http" && !Object.keys(headers).some((h) => h.toLowerCase() === "authorization") ? oauthSettings(entry.oauth, where.env) : undefined;
  const cwd = entry.cwd === undefined ? undefined : isAbsolute(home(entry.cwd)) ? home(entry.cwd) : resolve(where.cwd, entry.cwd);
  return {
    name, source, transport,
    ...(entry.command !== undefined ? { command: home(entry.command) } : {}),
    args: (entry.args ?? []).map(home),
    env: expandAll(entry.env, where.env, "env"),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(entry.url !== undefined ? { url: entry.url } : {}),
    headers,
    ...(oauth ? { oauth } : {}),
    timeoutMs: entry.timeout !== undefined ? entry.timeout * 1000 : DEFAULT_TIMEOUT_MS,
    enabled: entry.enabled !== false,
    exposure, toolExposure,
    ...(entry.description !== undefined ? { description: entry.description } : {}),
  };
}

const isOverride = (entry: Entry): boolean => entry.command === undefined && entry.url === undefined && entry.type === undefined;
/** Server names that differ only in `-` and `_` are the same server (one namespace). */
const namespaceKey = (name: string): string => name.replace(/-/g, "_");

export function loadMcpConfig(agentDir: string, cwd: string, projectTrusted: boolean, env: NodeJS.ProcessEnv): LoadedMcpConfig {
  const problems: string[] = [];
  const userFile = join(agentDir, "mcp.json");
  const projectFile = join(cwd, ".pi", "mcp.json");
  const user = readMcpFile(userFile, problems);
  const project = projectTrusted ? readMcpFile(projectFile, problems) : {};
  const merged = new Map<string, { entry: Entry; source: McpServerConfig["source"]; file: string }>();
  for (const [name, entry] of Object.entries(user)) merged.set(name, { entry, source: "user", file: userFile });
  for (const [name, entry] of Object.entries(project)) {
    const base = merged.get(name);
    if (isOverride(entry) && base) {
      const { enabled, exposure, toolExposure } = entry;
      merged.set(name, { entry: { ...base.entry, ...(enabled !== undefined ? { enabled } : {}), ...(exposure !== undefined ? { exposure } : {}), ...(toolExposure !== undefined ? { toolExposure } : {}) }, source: "project", file: projectFile });
    } else merged.set(name, { entry, source: "project", file: projectFile });
  }
  const servers: McpServerConfig[] = [];
  const namespaces = new Set<string>();
  for (const [name, { entry, source, file }] of merged) {
    try {
      if (namespaces.has(namespaceKey(name))) throw new Error("another server's name differs from it only in - and _");
      const server = toServer(name, entry, source, { cwd, env });
      namespaces.add(namespaceKey(name));
      servers.push(server);
    } catch (error) {
      problems.push(`${file}: MCP server ${JSON.stringify(name)} skipped: ${errorText(error)}`);
    }
  }
  return { servers, problems };
}

/**
 * VS Code's servers the editor offered (EDITOR_MCP_SERVERS_ENV: Pi entries converted from VS
 * Code's mcp.json files the user picked): checked as mcp.json's, `${VAR}` expanded as there.
 */
export function editorMcpServers(json: string, cwd: string, env: NodeJS.ProcessEnv): LoadedMcpConfig {
  const problems: string[] = [];
  const what = "VS Code's MCP servers offered by the editor";
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { servers: [], problems: [`${what}: not JSON; none used`] };
  }
  if (!mcpValidator()({ mcpServers: parsed })) return { servers: [], problems: [`${what}: not mcp.json entries; none used`] };
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(parsed as Record<string, Entry>)) {
    try {
      servers.push(toServer(name, entry, "vscode", { cwd, env }));
    } catch (error) {
      problems.push(`${what}: ${JSON.stringify(name)} skipped: ${errorText(error)}`);
    }
  }
  return { servers, problems };
}

/** A server an ACP client passed in session/new: the same checks and defaults as an mcp.json entry of that shape. */
export function clientMcpServer(name: string, entry: { command?: string; args?: string[]; env?: Record<string, string>; url?: string; headers?: Record<string, string> }, cwd: string, env: NodeJS.ProcessEnv): McpServerConfig {
  // A client's values are literal: no ${VAR} expansion of its env or headers (mcp.json's is the user's own file).
  // No OAuth for them: ACP has no sign-in to start, and the client brings its own headers.
  const { oauth: _none, ...server } = toServer(name, { ...entry, env: {}, headers: {} }, "client", { cwd, env });
  return { ...server, env: { ...entry.env }, headers: { ...entry.headers } };
}

/**
 * Which of VS Code's MCP servers the bundled host gets: the user's `mcp.json` (VS Code's user
 * folder, beside its globalStorage) always read, a folder's `.vscode/mcp.json` only in a trusted
 * workspace whose project the user trusted too (a cloned repository offers nothing by itself),
 * and of those only the servers the user picked (**Pi: Offer VS Code's MCP Servers to Pi…**),
 * each recorded with a digest of its converted entry: a server whose command, URL, env or headers
 * changed since is not offered until picked again.
 */
import { createHash } from "node:crypto";
import * as os from "node:os";
import * as path from "node:path";
import { readRegularText } from "../../shared/node/regular-file";
import { convertVsCodeMcp, type OfferedMcpServer, type PiMcpEntry } from "./vscode-mcp-config";

export interface VsCodeMcpSources {
  /** VS Code's user folder (`…/Code/User`): its mcp.json is the user's servers. */
  userDir: string;
  /** The session's folder. */
  folder: string;
  /** Workspace trust and project trust both given: `.vscode/mcp.json` is read. */
  workspaceAllowed: boolean;
}

/** A server as read, with the key its pick is recorded under. */
export interface FoundMcpServer extends OfferedMcpServer {
  key: string;
  file: string;
}

function read(file: string): string | undefined {
  try {
    return readRegularText(file);
  } catch {
    return undefined;
  }
}

/** origin:name:digest of what would be offered (the folder too for a workspace's). */
export function offerKey(server: OfferedMcpServer, folder: string): string {
  const digest = createHash("sha256").update(JSON.stringify([server.origin, server.origin === "workspace" ? folder : "", server.entry ?? null])).digest("hex").slice(0, 16);
  return `${server.origin}:${server.name}:${digest}`;
}

/** Every server of the files this session may read, offerable or with the reason it is not. */
export function findVsCodeMcpServers(sources: VsCodeMcpSources): { servers: FoundMcpServer[]; problems: string[] } {
  const files: [OfferedMcpServer["origin"], string][] = [["user", path.join(sources.userDir, "mcp.json")]];
  if (sources.workspaceAllowed) files.push(["workspace", path.join(sources.folder, ".vscode", "mcp.json")]);
  const servers: FoundMcpServer[] = [];
  const problems: string[] = [];
  for (const [origin, file] of files) {
    const text = read(file);
    if (text === undefined) continue;
    const converted = convertVsCodeMcp(text, origin, { workspaceFolder: sources.folder, userHome: os.homedir() });
    problems.push(...converted.problems.map((p) => `${file}: ${p}`));
    servers.push(...converted.servers.map((s) => ({ ...s, key: offerKey(s, sources.folder), file })));
  }
  return { servers, problems };
}

/** The picked servers as Pi mcp.json entries (a workspace's over the user's of the same name), or undefined for none. */
export function offeredEntries(servers: readonly FoundMcpServer[], picked: readonly string[]): Record<string, PiMcpEntry> | undefined {
  const chosen = new Set(picked);
  const entries: Record<string, PiMcpEntry> = {};
  for (const server of servers) if (server.entry && chosen.has(server.key)) entries[server.name] = server.entry;
  return Object.keys(entries).length > 0 ? entries : undefined;
}

/** The offered servers travel in one environment variable: at most this long. */
const MAX_OFFER_CHARS = 100_000;

/** The picked servers of `sources` as the JSON the bundled host reads (PI_EDITOR_MCP_SERVERS), or undefined for none. */
export function offeredServersJson(sources: VsCodeMcpSources, picked: readonly string[], log: { warn(message: string): void; info(message: string): void }): string | undefined {
  if (picked.length === 0) return undefined;
  const found = findVsCodeMcpServers(sources);
  for (const problem of found.problems) log.warn(`VS Code MCP servers: ${problem}`);
  const entries = offeredEntries(found.servers, picked);
  if (!entries) return undefined;
  const json = JSON.stringify(entries);
  // One environment string may hold 128 KiB on Linux: more would keep the agent from starting at all.
  if (json.length > MAX_OFFER_CHARS) {
    log.warn(`VS Code MCP servers: the picked servers take ${json.length} characters, more than ${MAX_OFFER_CHARS}; none offered`);
    return undefined;
  }
  log.info(`VS Code MCP servers offered to the agent: ${Object.keys(entries).join(", ")}`);
  return json;
}

/**
 * `--mode acp`: the ACP face (agent-host/acp/, loaded only now) with one host runtime per ACP
 * session, wired as --mode rpc wires its one: the same options, tools, gates, sandbox, MCP and
 * extensions. Differences, for an editor that asks: the permission question is on for bash, edit
 * and write unless --confirm-tools says which, and the todo tool (the plan) is on.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { listSessions, type SessionSummary } from "../../shared/node/session-summary";
import { defaultAgentDir } from "../ai/models/registry";
import { defaultSessionDir } from "../session/persistence/session-file";
import { loadSettings } from "../session/settings";
import { loadAcpMode } from "../acp/load";
import type { AcpRuntime, RuntimeRequest } from "../acp/host";
import type { CliOptions } from "./cli-options";
import { createHostRuntime } from "./host-runtime";
import { clientMcpServer, type McpServerConfig } from "../mcp/config";
import type { ClientMcpEntry } from "../acp/mcp-servers";
import { takeSecretEnv } from "./secret-env";
import { errorText } from "../../shared/error-text";

/** A session id as the host makes them (a UUID) or --session-id takes them: no path separators, no dots. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export async function runAcpMode(options: CliOptions, version: string, warn: (message: string) => void): Promise<number> {
  // As in --mode rpc: nothing the host spawns inherits the editor's keys.
  const secretEnv = takeSecretEnv(process.env);
  const base: CliOptions = { ...options, confirmTools: options.confirmTools.length > 0 ? options.confirmTools : ["bash", "edit", "write"], todoTool: true };
  const createRuntime = async (request: RuntimeRequest): Promise<AcpRuntime> => {
    // Each session opens its own file: a new one, or the one session/load names. --session/--continue/--fork apply to neither.
    const { session: _s, continue: _c, fork: _f, sessionId: _i, ...rest } = base;
    // session/load names a session by its exact id in this cwd's session folder (--session-id's lookup), never by a path or a part of an id.
    const ref = request.sessionRef;
    if (ref !== undefined && !SESSION_ID.test(ref)) throw new Error(`Session not found: ${ref}`);
    const sessionOptions: CliOptions = { ...rest, continue: false, ...(ref !== undefined ? { sessionId: ref } : {}) };
    const runtime = createHostRuntime(sessionOptions, {
      cwd: request.cwd, env: process.env, secretEnv, send: request.send, warn,
      toolIo: request.toolIo, askPermission: request.askPermission, clientMcpServers: checkedServers(request.mcpServers, request.cwd, warn),
    });
    const file = runtime.session.sessions.sessionFile;
    if (ref !== undefined && !(file && existsSync(file))) {
      // --session-id would have started a new session of that id: for a load it is not found.
      await Promise.all([runtime.mcp?.dispose(), runtime.ready?.then(() => runtime.extensions?.shutdown(), () => undefined)]);
      throw new Error(`Session not found: ${ref}`);
    }
    await runtime.ready;
    return runtime;
  };
  const listSaved = (cwd: string | undefined) => savedSessions(options, cwd);
  return loadAcpMode().serveAcp({ input: process.stdin, output: process.stdout, version, createRuntime, listSessions: listSaved, warn });
}

/**
 * The saved sessions session/list shows: those of `cwd` (in the folder its sessions go to, as
 * createSession resolves it: --session-dir, PI_CODING_AGENT_SESSION_DIR, the user's settings, or
 * pi's folder per cwd), or without a cwd those of every folder; newest first. A project's own
 * settings.json is not read here (it may be untrusted).
 */
function savedSessions(options: CliOptions, cwd: string | undefined): SessionSummary[] {
  const agentDir = defaultAgentDir(process.env);
  const base = cwd ?? process.cwd();
  const fixed = options.sessionDir ?? process.env.PI_CODING_AGENT_SESSION_DIR ?? loadSettings(agentDir, base, false).settings.sessionDir;
  let folders: string[];
  if (fixed) folders = [resolve(base, fixed)];
  else if (cwd) folders = [defaultSessionDir(agentDir, cwd)];
  else {
    const root = join(agentDir, "sessions");
    folders = existsSync(root) ? readdirSync(root, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? [join(root, d.name)] : [])) : [];
  }
  const wanted = cwd === undefined ? undefined : resolve(cwd);
  return folders
    .flatMap((folder) => listSessions(folder))
    .filter((s) => wanted === undefined || resolve(s.cwd) === wanted)
    .sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** The client's MCP servers, checked as mcp.json's entries are; one that does not pass is skipped with a warning. */
function checkedServers(entries: readonly ClientMcpEntry[], cwd: string, warn: (message: string) => void): McpServerConfig[] {
  return entries.flatMap(({ name, ...entry }) => {
    try {
      return [clientMcpServer(name, entry, cwd, process.env)];
    } catch (error) {
      warn(`ACP client's MCP server ${JSON.stringify(name)} skipped: ${errorText(error)}`);
      return [];
    }
  });
}

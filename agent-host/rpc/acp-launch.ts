/**
 * `--mode acp`: the ACP face (agent-host/acp/, loaded only now) with one host runtime per ACP
 * session, wired as --mode rpc wires its one: the same options, tools, gates, sandbox, MCP and
 * extensions. Differences, for an editor that asks: the permission question is on for bash, edit
 * and write unless --confirm-tools says which, and the todo tool (the plan) is on.
 */
import { existsSync } from "node:fs";
import { loadAcpMode } from "../acp/load";
import type { AcpRuntime, RuntimeRequest } from "../acp/host";
import type { CliOptions } from "./cli-options";
import { createHostRuntime } from "./host-runtime";
import { clientMcpServer, type McpServerConfig } from "../mcp/config";
import type { ClientMcpEntry } from "../acp/mcp-servers";
import { takeSecretEnv } from "./secret-env";

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
  return loadAcpMode().serveAcp({ input: process.stdin, output: process.stdout, version, createRuntime, warn });
}

/** The client's MCP servers, checked as mcp.json's entries are; one that does not pass is skipped with a warning. */
function checkedServers(entries: readonly ClientMcpEntry[], cwd: string, warn: (message: string) => void): McpServerConfig[] {
  return entries.flatMap(({ name, ...entry }) => {
    try {
      return [clientMcpServer(name, entry, cwd, process.env)];
    } catch (error) {
      warn(`ACP client's MCP server ${JSON.stringify(name)} skipped: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  });
}

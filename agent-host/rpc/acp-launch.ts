/**
 * `--mode acp`: the ACP face (agent-host/acp/, loaded only now) with one host runtime per ACP
 * session, wired as --mode rpc wires its one: the same options, tools, gates, sandbox, MCP and
 * extensions. Differences, for an editor that asks: the permission question is on for bash, edit
 * and write unless --confirm-tools says which, and the todo tool (the plan) is on.
 */
import { loadAcpMode } from "../acp/load";
import type { AcpRuntime, RuntimeRequest } from "../acp/host";
import type { CliOptions } from "./cli-options";
import { createHostRuntime } from "./host-runtime";
import { takeSecretEnv } from "./secret-env";

export async function runAcpMode(options: CliOptions, version: string, warn: (message: string) => void): Promise<number> {
  // As in --mode rpc: nothing the host spawns inherits the editor's keys.
  const secretEnv = takeSecretEnv(process.env);
  const base: CliOptions = { ...options, confirmTools: options.confirmTools.length > 0 ? options.confirmTools : ["bash", "edit", "write"], todoTool: true };
  const createRuntime = async (request: RuntimeRequest): Promise<AcpRuntime> => {
    // Each session opens its own file: a new one, or the one session/load names. --session/--continue/--fork apply to neither.
    const { session: _s, continue: _c, fork: _f, sessionId: _i, ...rest } = base;
    const sessionOptions: CliOptions = { ...rest, continue: false, ...(request.sessionRef ? { session: request.sessionRef } : {}) };
    const runtime = createHostRuntime(sessionOptions, {
      cwd: request.cwd, env: process.env, secretEnv, send: request.send, warn,
      toolIo: request.toolIo, askPermission: request.askPermission, clientMcpServers: request.mcpServers,
    });
    await runtime.ready;
    return runtime;
  };
  await loadAcpMode().serveAcp({ input: process.stdin, output: process.stdout, version, env: process.env, createRuntime, warn });
  return 0;
}

/**
 * The model's tools in a host: pi's built-in tools by name (plus `todo`), and the gates every
 * call passes before it runs (permission mode, workspace confinement, the permission question,
 * protected paths).
 */
import type { PermissionMode, TodoPhase } from "../../shared/protocol";
import type { Agent } from "../agent/agent";
import type { AnyAgentTool } from "../agent/tool";
import { allToolNames, createTool, createWorkspaceGuard, defaultToolNames, type EditIo, type PathGuard, type ReadIo, type ShellIo, type ToolName, type WriteIo } from "../tools";
import { hiddenHomeSecrets } from "../tools/hidden-paths";
import { homeEnvOf } from "../../shared/node/sandbox/secret-places";
import { createTodoTool, type TodoStore } from "../tools/todo";
import { chainGates } from "../session/tool-gates/gate-chain";
import { createWorkspaceGate } from "../session/tool-gates/path-policy";
import { createModeGate } from "../session/tool-gates/permission-mode";
import { createPermissionGate, type AskChoice, type ToolHints } from "../session/tool-gates/permission-policy";
import { createProtectedWriteCheck, ProtectedWriteApprovals } from "../session/tool-gates/protected-write-check";
import type { ConfiningSandbox } from "../session/tool-gates/protected-paths";
import type { ToolSandbox } from "../tools/tool-sandbox";
import type { CliOptions } from "./cli-options";
import type { RpcExtensionUi } from "./extension-ui";

/** The todo list (seed 001): each change is sent as todo_update. */
export function createTodoStore(send: (frame: object) => void) {
  let todos: TodoPhase[] = [];
  return {
    get: () => todos,
    set: (phases: TodoPhase[]) => {
      todos = phases;
      send({ type: "todo_update", phases });
    },
  };
}

/**
 * The sandbox that confines commands' writes (workspace-write: not protected names; read-only:
 * nothing): the host's own writing tools, which run outside it, may not write there unasked
 * either, whatever the mode, or the model would write `.git/config` with `write` where `bash`
 * could not.
 */
export function confiningSandbox(options: CliOptions): ConfiningSandbox | undefined {
  return options.sandbox === "workspace-write" || options.sandbox === "read-only" ? options.sandbox : undefined;
}

/**
 * The protected-path approvals shared by the permission gate (which records an Allow once) and the
 * writing tools (which check again right before writing); none when nothing is asked and no
 * sandbox protects (under one with nothing asked, a protected write is refused).
 */
export function protectedWrites(options: CliOptions, mode: () => PermissionMode, cwd: string): { approvals: ProtectedWriteApprovals; beforeWrite: PathGuard } | undefined {
  const sandbox = confiningSandbox(options);
  if (options.confirmTools.length === 0 && !sandbox) return undefined;
  const approvals = new ProtectedWriteApprovals();
  return { approvals, beforeWrite: createProtectedWriteCheck(approvals, mode, sandbox, cwd) };
}

/** File I/O of the read, write and edit tools, and bash's shell, served by someone else (an ACP client's fs/* and terminal/*); local otherwise. */
export interface ToolIo {
  read?: ReadIo;
  write?: WriteIo;
  edit?: EditIo;
  /** Not used under --sandbox: commands stay in our OS sandbox. */
  shell?: ShellIo;
}

/** Pi's built-in tools by name, plus `todo` (seed 001) when asked for with --tools. */
export function pickTools(options: CliOptions, defaultTools: string[] | undefined, cwd: string, todoStore: TodoStore, env: NodeJS.ProcessEnv, sandbox?: ToolSandbox, beforeWrite?: PathGuard, io: ToolIo = {}): AnyAgentTool[] {
  if (options.noTools || options.noBuiltinTools) return [];
  const chosen = options.tools ?? defaultTools ?? [...defaultToolNames];
  const wanted = [...chosen, ...(options.todoTool && !chosen.includes("todo") ? ["todo"] : [])].filter((name) => !options.excludeTools.includes(name));
  // Under a sandbox, what it hides from commands (`~/.ssh`, …) the file tools leave alone too.
  const hidden = confiningSandbox(options) ? hiddenHomeSecrets(homeEnvOf({ ...process.env, ...Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)) })) : undefined;
  const guards = [...(options.workspaceOnly ? [createWorkspaceGuard(cwd)] : []), ...(hidden ? [hidden.guard] : [])];
  const guard = {
    ...(guards.length ? { guard: ((absPath, asWritten, callId) => guards.forEach((check) => check(absPath, asWritten, callId))) satisfies PathGuard } : {}),
    ...(beforeWrite ? { beforeWrite } : {}),
    ...(hidden ? { hidden } : {}),
  };
  return wanted.flatMap((name): AnyAgentTool[] => {
    if (name === "todo") return [createTodoTool(todoStore)];
    const served = { ...(io.read ? { read: { io: io.read } } : {}), ...(io.write ? { write: { io: io.write } } : {}), ...(io.edit ? { edit: { io: io.edit } } : {}) };
    const shell = sandbox ? { sandbox } : io.shell ? { io: io.shell } : {};
    return (allToolNames as readonly string[]).includes(name) ? [createTool(name as ToolName, cwd, { ...guard, ...served, bash: { env, ...shell } })] : [];
  });
}

export interface GateSources {
  cwd: string;
  mode(): PermissionMode;
  /** Which session the host is in (SessionManager.generation): allowances end with it. */
  session(): number;
  /** Where the permission question is asked (the client's select dialog). */
  ui(): RpcExtensionUi | undefined;
  /** Where an Allow once of a protected write is recorded (protectedWrites). */
  approvals?: ProtectedWriteApprovals;
  /** MCP tools' annotations (mcp/manager.ts). */
  toolHints?: (tool: string) => ToolHints | undefined;
  /** Asks the permission question another way than the client's select dialog (ACP's session/request_permission, which names the call). */
  askPermission?: AskChoice;
}

/** A question to the client: its select dialog (the permission gate's), with --confirm-timeout; undefined when nobody answered. */
export function clientAsk(ui: () => RpcExtensionUi | undefined, timeout: number) {
  return async (title: string, choices: string[], signal?: AbortSignal, call?: { id: string }): Promise<string | undefined> => {
    const answer = await ui()?.dialog({ method: "select", title, options: choices, ...(timeout ? { timeout } : {}), ...(call ? { toolCallId: call.id } : {}) }, signal);
    return answer && "value" in answer ? answer.value : undefined;
  };
}

/** The gates, in order: what the mode refuses (plan: all but read-only tools) and refused paths are never asked about. */
export function gateToolCalls(agent: Agent, options: CliOptions, sources: GateSources): void {
  const { cwd, mode, session } = sources;
  const sandbox = confiningSandbox(options);
  const ask = sources.askPermission ?? clientAsk(sources.ui, options.confirmTimeoutMs);
  agent.gateToolCalls(
    chainGates([
      createModeGate(mode, (tool) => sources.toolHints?.(tool)?.readOnly === true),
      ...(options.workspaceOnly ? [createWorkspaceGate(cwd)] : []),
      ...(options.confirmTools.length > 0 ? [createPermissionGate(new Set(options.confirmTools), ask, { cwd, mode, session, ...(sandbox ? { sandbox } : {}), ...(sources.approvals ? { approvals: sources.approvals } : {}), ...(sources.toolHints ? { toolHints: sources.toolHints } : {}) })] : []),
    ]),
  );
}

import { existsSync } from "node:fs";
import { EncodedJson } from "../../../shared/jsonl";
import type { SessionTreeNode } from "../../../shared/protocol";
import { encodeTree } from "../../session/persistence/tree-json";
import { deliverCustomMessage } from "../../session/host-session/custom-message";
import { notePermissionModeChange } from "../../session/host-session/session-choices";
import { formatTodos } from "../../tools/todo";
import { branchInPlace, clone, fork, forkMessages, newSession, switchSession } from "../../session/host-session/navigation";
import type { McpSignIns } from "../../mcp/oauth/sign-ins";
import type { Handlers } from "./types";
import type { HostRuntime } from "../runtime";
import { todosOfBranch } from "../branch-todos";

/** After the session or its branch changed: the todo list is the branch's (a client hears todo_update when it changed). */
function withBranchTodos<T>(runtime: HostRuntime, result: T): T {
  const phases = todosOfBranch(runtime.session.sessions.branch());
  if (JSON.stringify(phases) !== JSON.stringify(runtime.todos.get())) runtime.todos.set(phases);
  return result;
}

/** Session files and navigation, compaction, export, user shell commands, host tools and todos. */
export const sessionHandlers: Pick<
  Handlers,
  | "new_session" | "switch_session" | "fork" | "clone" | "get_fork_messages" | "branch" | "get_branch_messages"
  | "get_entries" | "get_tree" | "export_html" | "compact" | "bash" | "abort_bash" | "set_host_tools" | "set_todos" | "set_permission_mode" | "set_delta_interval"
  | "get_mcp_servers" | "mcp_login" | "mcp_logout"
> = {
  new_session: (command, { runtime }) => withBranchTodos(runtime, newSession(runtime.session, command.parentSession)),
  switch_session: (command, { runtime }) => withBranchTodos(runtime, switchSession(runtime.session, command.sessionPath)),
  fork: (command, { runtime }) => withBranchTodos(runtime, fork(runtime.session, command.entryId)),
  clone: (_c, { runtime }) => withBranchTodos(runtime, clone(runtime.session)),
  get_fork_messages: (_c, { runtime }) => ({ messages: forkMessages(runtime.session) }),
  branch: (command, { runtime }) => withBranchTodos(runtime, branchInPlace(runtime.session, command.entryId)),
  get_branch_messages: (_c, { runtime }) => ({ messages: forkMessages(runtime.session) }),
  get_entries: (command, { runtime }) => {
    const sessions = runtime.session.sessions;
    return { entries: sessions.entriesSince(command.since), leafId: sessions.leafId };
  },
  get_tree: (_c, { runtime }) => {
    const { sessions } = runtime.session;
    return new EncodedJson<{ tree: SessionTreeNode[]; leafId: string | null }>(`{"tree":${encodeTree(sessions.tree())},"leafId":${JSON.stringify(sessions.leafId)}}`);
  },
  export_html: (command, { runtime }) => {
    // pi's checks, in its order: no file (--no-session), then a file not written yet (no reply so far).
    const file = runtime.session.sessions.sessionFile;
    if (!file) throw new Error("Cannot export in-memory session to HTML");
    if (!existsSync(file)) throw new Error("Nothing to export yet - start a conversation first");
    return { path: runtime.exportHtml(command.outputPath) };
  },
  compact: (command, { runtime }) => runtime.session.compact("manual", command.customInstructions),
  bash: async (command, context) => {
    const controller = new AbortController();
    bashRuns.add(controller);
    try {
      const result = await context.runtime.runBash(command.command, (delta) => context.send({ type: "bash_execution_update", ...(command.id ? { id: command.id } : {}), delta }), controller.signal);
      const session = context.runtime.session;
      const message = {
        role: "bashExecution" as const,
        command: command.command,
        output: result.output,
        exitCode: result.exitCode,
        cancelled: result.cancelled,
        truncated: result.truncated,
        ...(result.fullOutputPath ? { fullOutputPath: result.fullOutputPath } : {}),
        ...(command.excludeFromContext ? { excludeFromContext: true } : {}),
        timestamp: Date.now(),
      };
      session.agent.messages.push(message);
      session.sessions.appendMessage(message);
      return result;
    } finally {
      bashRuns.delete(controller);
    }
  },
  abort_bash: () => {
    for (const run of bashRuns) run.abort();
    return undefined;
  },
  set_host_tools: (command, { runtime }) => {
    const toolNames = runtime.hostTools.set(command.tools);
    runtime.session.agent.setTools([...runtime.session.agent.tools.filter((t) => !runtime.hostToolNames.has(t.name)), ...runtime.hostTools.tools()]);
    runtime.hostToolNames = new Set(toolNames);
    return { toolNames };
  },
  get_mcp_servers: (_c, { runtime }) => ({ servers: runtime.mcp?.status() ?? [] }),
  mcp_login: (command, { runtime }) => mcpSignIns(runtime).signIn(command.server),
  mcp_logout: (command, { runtime }) => mcpSignIns(runtime).signOut(command.server),
  set_delta_interval: (command, { pacing }) => {
    pacing.setInterval(command.ms);
    return { ms: pacing.intervalMs };
  },
  set_permission_mode: (command, { runtime }) => {
    notePermissionModeChange(runtime.session, runtime.permissionMode, command.mode);
    runtime.permissionMode = command.mode;
    return { mode: runtime.permissionMode };
  },
  set_todos: (command, { runtime }) => {
    runtime.todos.set(command.phases);
    const phases = runtime.todos.get();
    // A plan the client set (the user's edit in the editor) is news to the model: it reads it
    // before its next call (steered into a run, else with the next prompt), as a custom message.
    // The phases go in its details too: the plan is restored from the branch when the session is opened again.
    deliverCustomMessage(runtime.session, { role: "custom", customType: "plan", content: `The user changed the plan:\n${formatTodos(phases)}`, display: true, details: { phases }, timestamp: Date.now() });
    return { phases };
  },
};

const bashRuns = new Set<AbortController>();

function mcpSignIns(runtime: { mcp?: { signIns: McpSignIns } | undefined }): McpSignIns {
  if (!runtime.mcp) throw new Error("No MCP servers are configured (or --no-mcp is set).");
  return runtime.mcp.signIns;
}


/**
 * One host, wired from pi's options and the user's setup (~/.pi/agent): configuration and trust
 * (host-config.ts), models (model-setup.ts), tools and their gates (tool-setup.ts), context
 * resources (context-resources.ts), the session (session-factory.ts), MCP servers (mcp-setup.ts),
 * extensions (extensions.ts).
 */
import { availableThinkingLevels } from "../ai/thinking";
import { exportSessionHtml } from "../session/export/export-html";
import type { CliOptions } from "./cli-options";
import { LazyContextResources } from "./context-resources";
import { FirstReadTrust } from "./first-read-trust";
import { attachExtensions } from "./extensions";
import { childEnv, loadHostConfig } from "./host-config";
import { HostToolBridge } from "./host-tools";
import { setUpModels } from "./model-setup";
import type { HostRuntime } from "./runtime";
import { createSession } from "./session-factory";
import { clientAsk, createTodoStore, gateToolCalls, pickTools, protectedWrites, type ToolIo } from "./tool-setup";
import type { AskChoice } from "../session/tool-gates/permission-policy";
import type { McpServerConfig } from "../mcp/config";
import { createToolSandbox } from "./sandbox-setup";
import { prepareMcpRun, setUpMcp } from "./mcp-setup";
import { runUserBash } from "./user-bash";

export interface RuntimeEnvironment {
  cwd: string;
  /** The host's environment, secrets already taken out (secret-env.ts); read, never changed. */
  env: NodeJS.ProcessEnv;
  /** API keys kept out of `env` (and so out of every child process): for the providers only. */
  secretEnv?: Record<string, string>;
  send(frame: object): void;
  warn(message: string): void;
  /** Ends the host (an extension's ctx.shutdown()). */
  shutdown?(): void;
  /** The read/write/edit tools' file I/O, when a client serves it (ACP's fs/*). */
  toolIo?: ToolIo;
  /** The permission question asked another way than the select dialog (ACP's session/request_permission). */
  askPermission?: AskChoice;
  /** MCP servers the client passed (ACP's mcpServers), connected beside mcp.json's. */
  clientMcpServers?: McpServerConfig[];
  /** VS Code's MCP servers the editor offered (JSON of Pi entries), taken from the environment with the secrets. */
  editorMcpServers?: string;
}

export function createHostRuntime(options: CliOptions, environment: RuntimeEnvironment): HostRuntime {
  const { cwd, env, warn, send } = environment;
  const { agentDir, projectTrusted, trustAtStart, settings } = loadHostConfig(options, cwd, env, warn);
  const processEnv = childEnv(env, settings);
  const models = setUpModels(options, settings, { agentDir, env, ...(environment.secretEnv ? { secretEnv: environment.secretEnv } : {}), warn });
  const todos = createTodoStore(send);
  // The runtime is made below; the sandbox's and the trust's questions reach its client when asked.
  let runtimeRef: HostRuntime | undefined;
  const sandbox = createToolSandbox(options, cwd, processEnv, () => runtimeRef?.extensionUi, () => runtimeRef?.session.sessions.generation);
  const writes = protectedWrites(options, () => runtimeRef?.permissionMode ?? options.permissionMode, cwd);
  const tools = pickTools(options, settings.defaultTools, cwd, todos, processEnv, sandbox, writes?.beforeWrite, environment.toolIo);
  const trust = new FirstReadTrust({ cwd, agentDir }, trustAtStart, clientAsk(() => runtimeRef?.extensionUi, options.confirmTimeoutMs), warn);
  const resources = new LazyContextResources(options, { cwd, agentDir, trust }, tools, warn);
  const session = createSession(options, { cwd, agentDir, env, settings, models, tools, resources, warn });

  const runtime: HostRuntime = {
    session,
    models: models.models,
    thinkingLevels: (m) => availableThinkingLevels(m),
    commands: () => resources.commands(),
    beforePrompt: async () => {
      await resources.decideTrust();
      await prepareMcpRun(runtime.mcp, session, resources);
    },
    runBash: (command, onChunk, signal) => runUserBash(command, cwd, onChunk, signal, processEnv),
    exportHtml: (outputPath) => exportSessionHtml(session.sessions, outputPath),
    hostTools: new HostToolBridge(send),
    hostToolNames: new Set(),
    todos,
    permissionMode: options.permissionMode,
  };
  runtimeRef = runtime;
  const mcp = setUpMcp(options, { agentDir, cwd, projectTrusted, env: processEnv, clientServers: environment.clientMcpServers ?? [], ...(environment.editorMcpServers ? { editorServers: environment.editorMcpServers } : {}), ...(sandbox ? { sandbox } : {}), session, resources, ui: () => runtime.extensionUi, warn, codemode: settings.codemode });
  if (mcp) runtime.mcp = mcp;
  attachExtensions(runtime, options, { cwd, agentDir, projectTrusted, env: processEnv, send, warn, ...(sandbox ? { sandbox } : {}), ...(environment.shutdown ? { shutdown: environment.shutdown } : {}) });
  gateToolCalls(session.agent, options, { cwd, mode: () => runtime.permissionMode, session: () => session.sessions.generation, ui: () => runtime.extensionUi, ...(writes ? { approvals: writes.approvals } : {}), ...(mcp ? { toolHints: (tool: string) => mcp.annotations(tool) } : {}), ...(environment.askPermission ? { askPermission: environment.askPermission } : {}) });
  return runtime;
}

import * as os from "node:os";
import { resolve } from "node:path";
import { createModelRegistry, defaultAgentDir, type ModelRegistry } from "../ai/models/registry";
import { availableThinkingLevels, clampThinkingLevel, isThinkingLevel } from "../ai/thinking";
import { stream } from "../ai/stream";
import { transformMessages } from "../ai/transform";
import type { Message, Model, ThinkingLevel } from "../ai/types";
import { Agent } from "../agent/agent";
import { convertToLlm } from "../agent/convert-to-llm";
import type { AnyAgentTool } from "../agent/tool";
import { allToolNames, createTool, createWorkspaceGuard, defaultToolNames, type ToolName } from "../tools";
import { createTodoTool, type TodoStore } from "../tools/todo";
import type { TodoPhase } from "../../shared/protocol";
import { HostSession } from "../session/host-session/host-session";
import { compact } from "../session/compaction";
import { buildResourceCommands, buildSystemPromptSections, expandSlashCommand, loadContextResources, renderSystemPrompt } from "../session/context";
import { exportSessionHtml } from "../session/export/export-html";
import { recordModel, syncAgentWithSession } from "../session/host-session/navigation";
import { openInitialSession } from "./initial-session";
import { defaultSessionDir } from "../session/persistence/session-file";
import { SessionManager } from "../session/persistence/session-manager";
import { loadSettings } from "../session/settings";
import type { CliOptions } from "./cli-options";
import { HostToolBridge } from "./host-tools";
import type { HostRuntime } from "./runtime";
import { runUserBash } from "./user-bash";
import { attachExtensions } from "./extensions";
import { createPermissionGate } from "../session/tool-gates/permission-policy";
import { createModeGate } from "../session/tool-gates/permission-mode";
import { withCheckpoints } from "../session/tool-gates/checkpoints";
import { chainGates, createWorkspaceGate } from "../session/tool-gates/path-policy";
import { resolveProjectTrust } from "../../shared/node/project-trust";

/** Stands in while no model is configured: a prompt then fails with a clear message. */
const NO_MODEL: Model = {
  id: "none", name: "No model", api: "faux", provider: "none", baseUrl: "", reasoning: false, input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 0, maxTokens: 0,
};

export interface RuntimeEnvironment {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** API keys kept out of `env` (and so out of every child process): for the providers only. */
  secretEnv?: Record<string, string>;
  send(frame: object): void;
  warn(message: string): void;
  /** Ends the host (an extension's ctx.shutdown()). */
  shutdown?(): void;
}

/** Project trust as pi decides it without a prompt; a broken trust.json trusts nothing. */
function projectTrusted(approve: boolean | undefined, cwd: string, agentDir: string, warn: (message: string) => void): boolean {
  try {
    return resolveProjectTrust(approve, cwd, agentDir, os.homedir());
  } catch (error) {
    warn(`${error instanceof Error ? error.message : String(error)}; project resources are not loaded`);
    return false;
  }
}

/** Builds everything a session needs from pi's options and the user's setup (~/.pi/agent). */
export function createHostRuntime(options: CliOptions, environment: RuntimeEnvironment): HostRuntime {
  const { cwd, env, warn } = environment;
  const agentDir = defaultAgentDir(env);
  const allowProject = projectTrusted(options.approve, cwd, agentDir, warn);
  const { settings, problems } = loadSettings(agentDir, cwd, allowProject);
  problems.forEach(warn);
  if (typeof settings.httpProxy === "string" && settings.httpProxy) env.HTTP_PROXY = env.HTTPS_PROXY = settings.httpProxy;

  const registry = createModelRegistry({ agentDir, env: environment.secretEnv ? { ...env, ...environment.secretEnv } : env, ...(options.apiKey && options.provider ? { apiKeys: { [options.provider]: options.apiKey } } : {}) });
  registry.errors.forEach((e) => warn(e.message));
  const { model, thinkingLevel: suffixLevel } = pickModel(registry, options, settings.defaultProvider, settings.defaultModel, warn);
  const requested = options.thinking ?? suffixLevel ?? settings.defaultThinkingLevel;
  const thinkingLevel: ThinkingLevel = clampThinkingLevel(isThinkingLevel(requested) ? requested : "medium", model);

  let todos: TodoPhase[] = [];
  const todoStore = {
    get: () => todos,
    set: (phases: TodoPhase[]) => {
      todos = phases;
      environment.send({ type: "todo_update", phases });
    },
  };
  const tools = pickTools(options, settings.defaultTools, cwd, todoStore);
  // Context files, skills and templates are read when first needed (a prompt, get_commands).
  let loaded: ReturnType<typeof loadContextResources> | undefined;
  const resources = () => {
    if (loaded) return loaded;
    loaded = loadContextResources({
    cwd, agentDir, homeDir: os.homedir(), allowProject, noContextFiles: options.noContextFiles, noSkills: options.noSkills,
    skillPaths: options.skills, noPromptTemplates: options.noPromptTemplates, promptTemplatePaths: options.promptTemplates,
    ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}), appendSystemPrompt: options.appendSystemPrompt,
    });
    loaded.diagnostics.forEach((d) => warn(`${d.path ?? ""} ${d.message}`.trim()));
    return loaded;
  };
  // Built with the first prompt: the date in it costs the time-zone set-up, which start-up need not pay.
  let sections: Record<string, string> | undefined;
  const systemSections = () =>
    (sections ??= buildSystemPromptSections({
      cwd, tools, contextFiles: resources().contextFiles, skills: resources().skills,
      ...(resources().prompt.customPrompt !== undefined ? { customPrompt: resources().prompt.customPrompt } : {}),
      appendPrompts: resources().prompt.appendPrompts,
    }));
  const systemPrompt = () => renderSystemPrompt(systemSections());

  const sessionDir = options.noSession ? undefined : resolve(cwd, options.sessionDir ?? env.PI_CODING_AGENT_SESSION_DIR ?? settings.sessionDir ?? defaultSessionDir(agentDir, cwd));
  const sessions = new SessionManager({ cwd, ...(sessionDir ? { sessionDir } : {}) });
  const opened = openInitialSession(sessions, options, sessionDir);

  const agent: Agent = new Agent({
    model,
    thinkingLevel,
    tools,
    systemPrompt,
    steeringMode: settings.steeringMode,
    followUpMode: settings.followUpMode,
    stream,
    convertToLlm: (messages): Message[] => transformMessages(convertToLlm(messages), agent.model),
    requestAuth: (m) => registry.requestAuth(m),
    ...(typeof settings.httpIdleTimeoutMs === "number" && settings.httpIdleTimeoutMs >= 0 ? { streamOptions: { httpIdleTimeoutMs: settings.httpIdleTimeoutMs } } : {}),
  });
  const session: HostSession = new HostSession({
    agent, sessions, settings, hasModel: model !== NO_MODEL,
    expandInput: (text) => expandSlashCommand(text, resources()).text,
    systemSections,
    compactor: async (customInstructions, signal) => {
      const auth = await registry.requestAuth(agent.model);
      const result = await compact(sessions, agent.model, {
        ...(customInstructions ? { customInstructions } : {}), signal, settings: settings.compaction,
        ...auth, thinkingLevel: agent.thinkingLevel,
      });
      syncAgentWithSession(session);
      return result;
    },
  });
  if (opened) {
    syncAgentWithSession(session);
    const restored = sessions.context();
    const m = restored.model && registry.find(restored.model.provider, restored.model.modelId);
    if (m && !options.model) agent.model = m;
    if (restored.thinkingLevel && !options.thinking) agent.thinkingLevel = clampThinkingLevel(restored.thinkingLevel, agent.model);
  } else if (model !== NO_MODEL) {
    recordModel(session);
  }
  session.eventSnapshots = options.eventSnapshots;
  if (options.checkpointDir) agent.setTools(withCheckpoints(agent.tools, sessions, resolve(cwd, options.checkpointDir), cwd, warn));
  if (options.name) sessions.append({ type: "session_info", name: options.name });

  const hostTools = new HostToolBridge(environment.send);
  const scoped = options.models ?? settings.enabledModels;
  const runtime: HostRuntime = {
    session,
    models: {
      available: () => registry.available(),
      find: (provider, id) => registry.find(provider, id),
      scoped: () => (scoped ? scoped.flatMap((p) => tryResolve(registry, p)) : registry.available()),
      hasScope: scoped !== undefined,
    },
    thinkingLevels: (m) => availableThinkingLevels(m),
    commands: () => buildResourceCommands(resources().templates, resources().skills),
    runBash: (command, onChunk, signal) => runUserBash(command, cwd, onChunk, signal),
    exportHtml: (outputPath) => exportSessionHtml(sessions, outputPath),
    hostTools,
    hostToolNames: new Set(),
    todos: todoStore,
    permissionMode: options.permissionMode,
  };
  attachExtensions(runtime, options, { cwd, agentDir, projectTrusted: allowProject, send: environment.send, warn, ...(environment.shutdown ? { shutdown: environment.shutdown } : {}) });
  const ui = runtime.extensionUi;
  const timeout = options.confirmTimeoutMs;
  const mode = () => runtime.permissionMode;
  const gates = [
    // What the mode refuses (plan: all but read-only tools) and refused paths are never asked about.
    createModeGate(mode),
    ...(options.workspaceOnly ? [createWorkspaceGate(cwd)] : []),
    ...(options.confirmTools.length > 0
      ? [createPermissionGate(new Set(options.confirmTools), async (title, choices, signal) => {
          const answer = await ui?.dialog({ method: "select", title, options: choices, ...(timeout ? { timeout } : {}) }, signal);
          return answer && "value" in answer ? answer.value : undefined;
        }, cwd, mode)]
      : []),
  ];
  agent.gateToolCalls(chainGates(gates));
  return runtime;
}

function tryResolve(registry: ModelRegistry, pattern: string): Model[] {
  try {
    return [registry.resolve(pattern).model];
  } catch {
    return [];
  }
}

function pickModel(registry: ModelRegistry, options: CliOptions, defaultProvider: string | undefined, defaultModel: string | undefined, warn: (m: string) => void): { model: Model; thinkingLevel?: ThinkingLevel } {
  const pattern = options.model
    ? options.provider && !options.model.includes("/") ? `${options.provider}/${options.model}` : options.model
    : defaultModel
      ? defaultProvider ? `${defaultProvider}/${defaultModel}` : defaultModel
      : undefined;
  if (pattern) {
    try {
      const resolved = registry.resolve(pattern);
      if (resolved.warning) warn(resolved.warning);
      return { model: resolved.model, ...(resolved.thinkingLevel ? { thinkingLevel: resolved.thinkingLevel } : {}) };
    } catch (error) {
      warn(error instanceof Error ? error.message : String(error));
      if (options.model) return { model: NO_MODEL };
    }
  }
  const available = registry.available().filter((m) => !options.provider || m.provider === options.provider);
  return { model: available[0] ?? NO_MODEL };
}

/** Pi's built-in tools by name, plus `todo` (seed 001) when asked for with --tools. */
function pickTools(options: CliOptions, defaultTools: string[] | undefined, cwd: string, todoStore: TodoStore): AnyAgentTool[] {
  if (options.noTools || options.noBuiltinTools) return [];
  const chosen = options.tools ?? defaultTools ?? [...defaultToolNames];
  const wanted = [...chosen, ...(options.todoTool && !chosen.includes("todo") ? ["todo"] : [])].filter((name) => !options.excludeTools.includes(name));
  const guard = options.workspaceOnly ? { guard: createWorkspaceGuard(cwd) } : {};
  return wanted.flatMap((name): AnyAgentTool[] => {
    if (name === "todo") return [createTodoTool(todoStore)];
    return (allToolNames as readonly string[]).includes(name) ? [createTool(name as ToolName, cwd, guard)] : [];
  });
}

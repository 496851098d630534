/**
 * The host's session: the agent (model, tools, system prompt, queue modes, the HTTP options of
 * its requests) tied to its session file, with compaction, opened as the command line says
 * (--session, --continue, --fork, --session-id, a new one), its model and thinking level
 * restored from the file or recorded in it.
 */
import { resolve } from "node:path";
import { stream } from "../ai/stream";
import { clampThinkingLevel } from "../ai/thinking";
import { transformMessages } from "../ai/transform";
import type { Message } from "../ai/types";
import { Agent } from "../agent/agent";
import { convertToLlm } from "../agent/convert-to-llm";
import type { AnyAgentTool } from "../agent/tool";
import { compact } from "../session/compaction";
import { HostSession } from "../session/host-session/host-session";
import { recordModel, syncAgentWithSession } from "../session/host-session/navigation";
import { defaultSessionDir } from "../session/persistence/session-file";
import { SessionManager } from "../session/persistence/session-manager";
import { withCheckpoints } from "../session/tool-gates/checkpoints";
import type { Settings } from "../session/settings";
import type { CliOptions } from "./cli-options";
import type { LazyContextResources } from "./context-resources";
import { httpProxy } from "./host-config";
import { openInitialSession } from "./initial-session";
import { NO_MODEL, type ModelSetup } from "./model-setup";

export interface SessionSources {
  cwd: string;
  agentDir: string;
  env: NodeJS.ProcessEnv;
  settings: Settings;
  models: ModelSetup;
  tools: AnyAgentTool[];
  resources: LazyContextResources;
  warn(message: string): void;
}

export function createSession(options: CliOptions, sources: SessionSources): HostSession {
  const { cwd, settings, models, warn } = sources;
  const { registry, model } = models;
  const sessionDir = options.noSession ? undefined : resolve(cwd, options.sessionDir ?? sources.env.PI_CODING_AGENT_SESSION_DIR ?? settings.sessionDir ?? defaultSessionDir(sources.agentDir, cwd));
  const sessions = new SessionManager({ cwd, ...(sessionDir ? { sessionDir } : {}) });
  const opened = openInitialSession(sessions, options, sessionDir);

  const agent: Agent = new Agent({
    model,
    thinkingLevel: models.thinkingLevel,
    tools: sources.tools,
    systemPrompt: () => sources.resources.systemPrompt(),
    steeringMode: settings.steeringMode,
    followUpMode: settings.followUpMode,
    stream,
    convertToLlm: (messages): Message[] => transformMessages(convertToLlm(messages), agent.model),
    requestAuth: (m) => registry.requestAuth(m),
    streamOptions: requestOptions(settings),
  });
  const session: HostSession = new HostSession({
    agent, sessions, settings, hasModel: model !== NO_MODEL, eventSnapshots: options.eventSnapshots,
    expandInput: (text) => sources.resources.expand(text),
    systemSections: () => sources.resources.allSections(),
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
  if (options.checkpointDir) agent.setTools(withCheckpoints(agent.tools, sessions, resolve(cwd, options.checkpointDir), cwd, warn));
  if (options.name) sessions.append({ type: "session_info", name: options.name });
  return session;
}

/** settings.json's HTTP options for every model request. */
function requestOptions(settings: Settings): { httpIdleTimeoutMs?: number; httpProxy?: string } {
  const idle = typeof settings.httpIdleTimeoutMs === "number" && settings.httpIdleTimeoutMs >= 0 ? { httpIdleTimeoutMs: settings.httpIdleTimeoutMs } : {};
  const proxy = httpProxy(settings);
  return { ...idle, ...(proxy ? { httpProxy: proxy } : {}) };
}

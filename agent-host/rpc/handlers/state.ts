import type { Model as WireModel } from "../../../shared/protocol";
import { clampThinkingLevel } from "../../ai/thinking";
import type { Model } from "../../ai/types";
import { contextTokens, sessionStats } from "../../session/persistence/session-stats";
import { useModel as useSessionModel } from "../../session/host-session/session-choices";
import type { HostRuntime } from "../runtime";
import type { Handlers } from "./types";

const wire = (model: Model): WireModel => model as WireModel;

const useModel = (runtime: HostRuntime, model: Model): void => useSessionModel(runtime.session, model);

/** State, models, thinking levels, statistics and the session name. */
export const stateHandlers: Pick<
  Handlers,
  | "get_state" | "get_messages" | "set_model" | "cycle_model" | "get_available_models" | "set_thinking_level"
  | "cycle_thinking_level" | "get_available_thinking_levels" | "set_auto_compaction" | "set_auto_retry" | "abort_retry"
  | "get_session_stats" | "get_last_assistant_text" | "set_session_name" | "get_commands"
> = {
  get_state: (_c, { runtime, pacing }) => {
    const state = runtime.session.state();
    return { ...state, interruptMode: runtime.session.agent.interruptMode, todoPhases: runtime.todos.get(), permissionMode: runtime.permissionMode, deltaIntervalMs: pacing.intervalMs };
  },
  get_messages: (_c, { runtime }) => ({ messages: [...runtime.session.agent.messages] }),
  set_model: (command, { runtime }) => {
    const model = runtime.models.find(command.provider, command.modelId);
    if (!model) throw new Error(`Model not found: ${command.provider}/${command.modelId}`);
    useModel(runtime, model);
    return wire(model);
  },
  cycle_model: (_c, { runtime }) => {
    const models = runtime.models.scoped();
    if (models.length <= 1) return null;
    const current = runtime.session.agent.model;
    const at = models.findIndex((m) => m.provider === current.provider && m.id === current.id);
    const next = models[(at + 1) % models.length];
    useModel(runtime, next);
    return { model: wire(next), thinkingLevel: runtime.session.agent.thinkingLevel, isScoped: runtime.models.hasScope };
  },
  get_available_models: (_c, { runtime }) => ({ models: runtime.models.available().map(wire) }),
  set_thinking_level: (command, { runtime }) => {
    runtime.session.setThinkingLevel(clampThinkingLevel(command.level, runtime.session.agent.model));
    return undefined;
  },
  cycle_thinking_level: (_c, { runtime }) => {
    const levels = runtime.thinkingLevels(runtime.session.agent.model);
    if (levels.length <= 1) return null;
    const next = levels[(levels.indexOf(runtime.session.agent.thinkingLevel) + 1) % levels.length];
    runtime.session.setThinkingLevel(next);
    return { level: next };
  },
  get_available_thinking_levels: (_c, { runtime }) => ({ levels: runtime.thinkingLevels(runtime.session.agent.model) }),
  set_auto_compaction: (command, { runtime }) => {
    runtime.session.autoCompaction = command.enabled;
    return undefined;
  },
  set_auto_retry: (command, { runtime }) => {
    runtime.session.autoRetry = command.enabled;
    return undefined;
  },
  abort_retry: (_c, { runtime }) => {
    runtime.session.cancelRetry();
    return undefined;
  },
  get_session_stats: (_c, { runtime }) => {
    const sessions = runtime.session.sessions;
    return sessionStats(sessions, runtime.session.agent.model.contextWindow, contextTokens(sessions));
  },
  get_last_assistant_text: (_c, { runtime }) => {
    const last = [...runtime.session.agent.messages].reverse().find((m) => m.role === "assistant");
    if (last?.role !== "assistant") return { text: null };
    const text = last.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
    return { text: text || null };
  },
  set_session_name: (command, { runtime, send }) => {
    const name = command.name.replace(/[\r\n]+/g, " ").trim();
    if (!name) throw new Error("Session name cannot be empty");
    runtime.session.sessions.append({ type: "session_info", name });
    send({ type: "session_info_changed", name });
    return undefined;
  },
  get_commands: (_c, { runtime }) => ({ commands: [...(runtime.extensions?.commands() ?? []), ...runtime.commands()] }),
};

/**
 * One ACP session: a host runtime of its own (the same wiring as --mode rpc), whose frames become
 * session/update notifications (updates.ts), prompted, cancelled, switched between permission
 * modes and models. A prompt answers with its stop reason once every update of its run is written.
 */
import { readFile } from "node:fs/promises";
import { acp, type AgentContext, type ContentBlock, type PromptResponse, type SessionConfigOption, type StopReason } from "./sdk";
import type { PermissionMode } from "../../shared/protocol";
import { availableThinkingLevels } from "../ai/thinking";
import type { ThinkingLevel } from "../ai/types";
import { notePermissionModeChange, useModel } from "../session/host-session/session-choices";
import type { AcpRuntime } from "./host";
import { modeId, modeState } from "./modes";
import { hostPrompt } from "./prompt-content";
import { replayUpdates } from "./replay";
import { UpdateStream } from "./updates";

export class AcpSession {
  readonly updates: UpdateStream;
  runtime!: AcpRuntime;
  private cancelled = false;
  /** Aborted by session/cancel: ends the wait before a run (MCP servers connecting) too. */
  private cancelling = new AbortController();

  constructor(
    readonly sessionId: string,
    private readonly client: () => AgentContext,
    readonly cwd: string,
    readBefore: (absPath: string) => Promise<string | null>,
    report: (error: unknown) => void,
  ) {
    this.updates = new UpdateStream({
      cwd,
      report,
      readBefore,
      notify: (update) => this.client().notify("session/update", { sessionId: this.sessionId, update }),
    });
  }

  /** The runtime, once made (its frames may already have been queued through `updates`). */
  attach(runtime: AcpRuntime): void {
    this.runtime = runtime;
  }

  /** After session/new or session/load: the slash commands and the plan the client can show. */
  announce(): void {
    const commands = [...(this.runtime.extensions?.commands() ?? []), ...this.runtime.commands()];
    this.updates.send([{ sessionUpdate: "available_commands_update", availableCommands: commands.map((c) => ({ name: c.name, description: c.description ?? c.name, input: { hint: "arguments" }, _meta: { pi: { source: c.source } } })) }]);
  }

  replay(): void {
    this.updates.send(replayUpdates(this.runtime.session.agent.messages, this.cwd));
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    const { runtime } = this;
    if (runtime.session.isStreaming) throw acp.RequestError.invalidRequest(undefined, "A prompt is already running in this session");
    this.cancelled = false;
    this.cancelling = new AbortController();
    const signal = this.cancelling.signal;
    await Promise.race([runtime.beforePrompt(), new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }))]);
    if (this.cancelled) return this.finish("cancelled");
    const { text, images } = hostPrompt(blocks);
    // An extension's /command runs here, as in --mode rpc.
    if (runtime.extensions && (await runtime.extensions.runCommand(text))) return this.finish("end_turn");
    runtime.session.prompt(text, images);
    await runtime.session.waitForSettled();
    const last = [...runtime.session.agent.messages].reverse().find((m) => m.role === "assistant");
    if (this.cancelled || (last?.role === "assistant" && last.stopReason === "aborted")) return this.finish("cancelled");
    if (last?.role === "assistant" && last.stopReason === "error") {
      await this.updates.flushed();
      throw acp.RequestError.internalError({ pi: { stopReason: "error" } }, last.errorMessage ?? "The model request failed");
    }
    return this.finish(last?.role === "assistant" && last.stopReason === "length" ? "max_tokens" : "end_turn", last?.role === "assistant" ? last.usage : undefined);
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
    this.cancelling.abort();
    await this.runtime.session.abort();
  }

  setMode(mode: PermissionMode): void {
    const { runtime } = this;
    notePermissionModeChange(runtime.session, runtime.permissionMode, mode);
    runtime.permissionMode = mode;
    this.updates.send([{ sessionUpdate: "current_mode_update", currentModeId: modeId(mode) }]);
  }

  modes() {
    return modeState(this.runtime.permissionMode);
  }

  /** The model and thinking level as ACP config options (category model / thought_level). */
  configOptions(): SessionConfigOption[] {
    const agent = this.runtime.session.agent;
    const models = this.runtime.models.available();
    const options: SessionConfigOption[] = [];
    if (models.length > 0) {
      options.push({
        type: "select", id: "model", name: "Model", category: "model", currentValue: `${agent.model.provider}/${agent.model.id}`,
        options: models.map((m) => ({ value: `${m.provider}/${m.id}`, name: m.name ?? m.id, description: m.provider })),
      });
    }
    const levels = availableThinkingLevels(agent.model);
    if (levels.length > 1) options.push({ type: "select", id: "thinking", name: "Thinking", category: "thought_level", currentValue: agent.thinkingLevel, options: levels.map((l) => ({ value: l, name: l })) });
    return options;
  }

  setConfigOption(id: string, value: unknown): SessionConfigOption[] {
    const { session } = this.runtime;
    if (id === "model" && typeof value === "string") {
      const slash = value.indexOf("/");
      const model = slash > 0 ? this.runtime.models.find(value.slice(0, slash), value.slice(slash + 1)) : undefined;
      if (!model) throw acp.RequestError.invalidParams(undefined, `Unknown model: ${value}`);
      useModel(session, model);
    } else if (id === "thinking" && typeof value === "string" && availableThinkingLevels(session.agent.model).includes(value as ThinkingLevel)) {
      session.setThinkingLevel(value as ThinkingLevel);
    } else {
      throw acp.RequestError.invalidParams(undefined, `Unknown config option or value: ${id}`);
    }
    return this.configOptions();
  }

  private async finish(stopReason: StopReason, usage?: unknown): Promise<PromptResponse> {
    await this.updates.flushed();
    return { stopReason, ...(usage ? { _meta: { pi: { usage } } } : {}) };
  }

  /** Pi's extras of a session in `_meta.pi`: its file and model. */
  meta(): Record<string, unknown> {
    const state = this.runtime.session.state();
    return { pi: { sessionFile: state.sessionFile ?? null, model: state.model ? `${state.model.provider}/${state.model.id}` : null, thinkingLevel: state.thinkingLevel } };
  }
}

/** A file's text before a write, from the client's fs when it serves it (null: none). */
export function beforeReader(client: () => AgentContext, sessionId: () => string, clientReads: boolean) {
  return async (absPath: string): Promise<string | null> => {
    try {
      if (clientReads) return (await client().request("fs/read_text_file", { sessionId: sessionId(), path: absPath })).content;
      return await readFile(absPath, "utf8");
    } catch {
      return null; // a new file
    }
  };
}

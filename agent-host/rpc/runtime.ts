import type { BashResult, SlashCommand, TodoPhase } from "../../shared/protocol";
import type { Model, ThinkingLevel } from "../ai/types";
import type { AgentSession } from "../session/agent-session";
import type { HostToolBridge } from "./host-tools";

/** What the command handlers work with; rpc/host-runtime.ts builds it from the CLI options. */
export interface HostRuntime {
  session: AgentSession;
  models: {
    available(): Model[];
    find(provider: string, modelId: string): Model | undefined;
    /** Models that cycle_model goes through (--models / enabledModels), or all available. */
    scoped(): Model[];
    hasScope: boolean;
  };
  thinkingLevels(model: Model): ThinkingLevel[];
  commands(): SlashCommand[];
  runBash(command: string, onChunk: (text: string) => void, signal: AbortSignal): Promise<BashResult>;
  exportHtml(outputPath: string | undefined): string;
  hostTools: HostToolBridge;
  /** Names of the tools set by the client, so a new set_host_tools replaces exactly those. */
  hostToolNames: Set<string>;
  todos: TodoPhase[];
}

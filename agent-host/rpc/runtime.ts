import type { BashResult, PermissionMode, SlashCommand, TodoPhase } from "../../shared/protocol";
import type { Model, ThinkingLevel } from "../ai/types";
import type { ProviderOverride } from "../ai/models/registry";
import type { HostSession } from "../session/host-session/host-session";
import type { HostToolBridge } from "./host-tools";
import type { ExtensionHost } from "../session/extensions";
import type { RpcExtensionUi } from "./extension-ui";
import type { McpManager } from "../mcp/manager";

/** What the command handlers work with; rpc/host-runtime.ts builds it from the CLI options. */
export interface HostRuntime {
  session: HostSession;
  models: {
    available(): Model[];
    find(provider: string, modelId: string): Model | undefined;
    /** Models that cycle_model goes through (--models / enabledModels), or all available. */
    scoped(): Model[];
    hasScope: boolean;
    /** Pi's registerProvider for an existing provider (baseUrl / headers / apiKey). */
    overrideProvider(provider: string, override: ProviderOverride | undefined): boolean;
  };
  thinkingLevels(model: Model): ThinkingLevel[];
  commands(): SlashCommand[];
  /**
   * Before a prompt: asks about project resources that appeared since start-up (first-read-trust.ts),
   * waits (bounded) for MCP servers with direct tools, whose tools must be in the prompt's request.
   */
  beforePrompt(): Promise<void>;
  /** The MCP servers (agent-host/mcp), when any is configured. */
  mcp?: McpManager;
  runBash(command: string, onChunk: (text: string) => void, signal: AbortSignal): Promise<BashResult>;
  exportHtml(outputPath: string | undefined): string;
  hostTools: HostToolBridge;
  /** Names of the tools set by the client, so a new set_host_tools replaces exactly those. */
  hostToolNames: Set<string>;
  /** The permission mode (ours: set_permission_mode, --permission-mode). */
  permissionMode: PermissionMode;
  /** The todo list (seed 001): get_state's todoPhases, set_todos and the `todo` tool; changes emit todo_update. */
  todos: { get(): TodoPhase[]; set(phases: TodoPhase[]): void };
  /** Dialogs and notices of extensions (extension_ui_request / extension_ui_response). */
  extensionUi?: RpcExtensionUi;
  /** The loaded Pi extensions, once `ready` has resolved. */
  extensions?: ExtensionHost;
  /** Settles when the extensions are loaded; rejects (ExtensionLoadFailure) when one fails to load. */
  ready?: Promise<void>;
}

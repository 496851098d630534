/**
 * What the ACP face needs of a host, declared here so that acp/ stays below rpc/: rpc/acp-launch.ts
 * builds one runtime per ACP session (rpc/host-runtime.ts, the same wiring as --mode rpc) and
 * hands it over through `AcpHost.createRuntime`.
 */
import type { Readable, Writable } from "node:stream";
import type { PermissionMode, SlashCommand, TodoPhase } from "../../shared/protocol";
import type { Model } from "../ai/types";
import type { ClientMcpEntry } from "./mcp-servers";
import type { SessionSummary } from "../../shared/node/session-summary";
import type { HostSession } from "../session/host-session/host-session";
import type { ExtensionHost } from "../session/extensions";
import type { AskChoice } from "../session/tool-gates/permission-policy";
import type { EditIo, ReadIo, ShellIo, WriteIo } from "../tools/io";

/** One session's host, as rpc/host-runtime.ts makes it. */
export interface AcpRuntime {
  session: HostSession;
  models: { available(): Model[]; find(provider: string, modelId: string): Model | undefined };
  commands(): SlashCommand[];
  beforePrompt(): Promise<void>;
  permissionMode: PermissionMode;
  todos: { get(): TodoPhase[] };
  extensionUi?: { receive(response: { type: "extension_ui_response"; id: string; value?: string; confirmed?: boolean; cancelled?: boolean }): void; cancelAll(): void };
  extensions?: ExtensionHost;
  mcp?: { dispose(): Promise<void> };
}

/** What a session's runtime is made with. */
export interface RuntimeRequest {
  cwd: string;
  /** A saved session to open (its id or path), for session/load; a new session otherwise. */
  sessionRef?: string;
  /** The client's MCP servers, as it gave them (checked and connected by the runtime's maker). */
  mcpServers: ClientMcpEntry[];
  /** The frames --mode rpc would write (events, todo_update, extension_ui_request): the face translates them. */
  send(frame: object): void;
  /** `shell` is used only without --sandbox. */
  toolIo: { read?: ReadIo; write?: WriteIo; edit?: EditIo; shell?: ShellIo };
  askPermission: AskChoice;
}

export interface AcpHost {
  input: Readable;
  output: Writable;
  version: string;
  createRuntime(request: RuntimeRequest): Promise<AcpRuntime>;
  /** The saved sessions a session/load or session/resume can open: of one folder, or all the host keeps; newest first. */
  listSessions(cwd: string | undefined): SessionSummary[];
  warn(message: string): void;
}

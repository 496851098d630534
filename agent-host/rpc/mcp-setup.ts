/**
 * MCP servers in a host (agent-host/mcp/): read from mcp.json (the project's only when trusted),
 * connected in the background, their tools added to the agent's as they arrive, the
 * `mcp_servers` section added to the system prompt. Nothing at all when no server is configured
 * or with --no-mcp / --no-tools: the SDK is then never loaded.
 */
import type { AnyAgentTool } from "../agent/tool";
import { editorMcpServers, loadMcpConfig, type McpServerConfig } from "../mcp/config";
import { mcpToolSelection } from "../mcp/exposure";
import { loadMcpManager } from "../mcp/load";
import type { McpManager } from "../mcp/manager";
import type { HostSession } from "../session/host-session/host-session";
import type { ToolSandbox } from "../tools/tool-sandbox";
import type { CliOptions } from "./cli-options";
import type { LazyContextResources } from "./context-resources";
import type { RpcExtensionUi } from "./extension-ui";
import { toolGuidelines } from "../session/context";

export interface McpSources {
  agentDir: string;
  cwd: string;
  projectTrusted: boolean;
  /** The environment of processes the host starts (secrets taken out). */
  env: NodeJS.ProcessEnv;
  sandbox?: ToolSandbox;
  /** Servers the client passed (ACP's session/new mcpServers). */
  clientServers: McpServerConfig[];
  /** VS Code's servers the editor offered (EDITOR_MCP_SERVERS_ENV's JSON, taken from the environment at start-up). */
  editorServers?: string;
  session: HostSession;
  resources: LazyContextResources;
  ui(): RpcExtensionUi | undefined;
  warn(message: string): void;
  /** settings.json's `codemode` (global, and the trusted project's over it). */
  codemode?: { mode: "on" | "only"; inlineBudget: number };
}

const VERSION = process.env.PI_VSCODE_VERSION ?? "0.0.0-dev";

export function setUpMcp(options: CliOptions, sources: McpSources): McpManager | undefined {
  if (options.noMcp || options.noTools) return undefined;
  const loaded = loadMcpConfig(sources.agentDir, sources.cwd, sources.projectTrusted, sources.env);
  const editor = sources.editorServers ? editorMcpServers(sources.editorServers, sources.cwd, sources.env) : { servers: [], problems: [] };
  const problems = [...loaded.problems, ...editor.problems];
  const key = (s: McpServerConfig) => s.name.replace(/-/g, "_");
  // A client's server of the same name as a configured one replaces it for this session; mcp.json's replaces an offered VS Code one (Pi's rule for registered servers).
  const clientNames = new Set(sources.clientServers.map(key));
  const configured = loaded.servers.filter((s) => !clientNames.has(key(s)));
  const taken = new Set([...configured, ...sources.clientServers].map(key));
  const servers = [...configured, ...sources.clientServers, ...editor.servers.filter((s) => !taken.has(key(s)))];
  const tell = (message: string, kind: "info" | "warning" | "error" = "warning") => {
    sources.warn(message);
    sources.ui()?.notice({ method: "notify", message, notifyType: kind });
  };
  problems.forEach((problem) => tell(problem));
  if (!servers.some((s) => s.enabled)) return undefined;
  const agent = sources.session.agent;
  let ours = new Set<string>();
  const { McpManager, MCP_SERVERS_SECTION, CODEMODE_STORE_ENTRY, readStore } = loadMcpManager();
  const manager: McpManager = new McpManager(servers, {
    env: sources.env,
    cwd: sources.cwd,
    ...(sources.sandbox ? { sandbox: sources.sandbox } : {}),
    selected: mcpToolSelection(options.tools, options.excludeTools),
    report: tell,
    agentDir: sources.agentDir,
    clientVersion: VERSION,
    declaredTools: () => agent.tools,
    ...(sources.codemode ? { codemode: sources.codemode } : {}),
    guidelines: (tool) => toolGuidelines(tool.name),
    // store() values as Pi keeps them: `codemode-store` entries on the session's branch.
    codemodeStore: {
      read: () => readStore(sources.session.sessions.branch()),
      write(writes) {
        const entry = sources.session.sessions.append({ type: "custom", customType: CODEMODE_STORE_ENTRY, data: writes });
        sources.session.emit({ type: "entry_appended", entry });
      },
    },
    toolsChanged: () => {
      const mcpTools: AnyAgentTool[] = manager.tools();
      agent.setTools([...manager.withScriptNotes(agent.tools.filter((t) => !ours.has(t.name))), ...mcpTools]);
      ours = new Set(mcpTools.map((t) => t.name));
    },
  });
  // Codemode's `only` mode: requests, and the system prompt's tool list and rules, leave out the tools its description lists.
  agent.declareTools((tools) => manager.declared(tools));
  sources.resources.shownTool = (name) => manager.shows(name);
  sources.resources.extraTools = () => manager.promptTools();
  sources.resources.extraSections = (): Record<string, string> => {
    const section = manager.systemSection();
    return section ? { [MCP_SERVERS_SECTION]: section } : {};
  };
  manager.start();
  // The host's end closes the servers gently (rpc-mode.ts); what is still running when it exits is killed.
  process.once("exit", () => manager.killNow());
  return manager;
}

/** Before a prompt: direct servers waited for (bounded), the system prompt brought up to date when the section changed. */
export async function prepareMcpRun(manager: McpManager | undefined, session: HostSession, resources: LazyContextResources): Promise<void> {
  if (!manager) return;
  await manager.beforePrompt();
  if (resources.extraChanged()) session.agent.systemPrompt = resources.systemPrompt();
}

/**
 * The MCP servers of one host: each connects in the background when the host starts; their tools
 * reach the agent as they arrive (direct ones declared, the rest behind tool_search). A prompt
 * waits a bounded time only for servers with direct tools, since those must be in its request;
 * a server that fails is reported once with its reason and leaves the others working.
 */
import type { McpServerStatus } from "../../shared/protocol/mcp";
import type { AnyAgentTool } from "../agent/tool";
import type { ToolSandbox } from "../tools/tool-sandbox";
import type { McpServerConfig } from "./config";
import { McpConnection } from "./connection";
import { mcpNamespace, toolExposure } from "./exposure";
import { McpSignIns, signInNotice, type NoticeKind } from "./oauth/sign-ins";
import { buildEntries, type McpToolEntry } from "./registry";
import { serversSection } from "./system-section";

export { MCP_SERVERS_SECTION } from "./system-section";
export { CODEMODE_STORE_ENTRY, readStore } from "./codemode/store";
import { createResourceTools, RESOURCE_TOOL_NAMES } from "./resource-tools";
import { createToolSearchTool, TOOL_SEARCH } from "./tool-search";
import { CODEMODE, CODEMODE_DESCRIPTION, CODEMODE_GUIDELINES, CODEMODE_SNIPPET, scriptCallNote, withNote } from "./codemode/description";
import { declarationOf, type CallableTool, type ScriptNamespace } from "./codemode/discovery";
import type { CodemodeStore } from "./codemode/store";
import { createCodemodeTool, type ScriptReach } from "./codemode/tool";
import { catalogDescription, inlineBudgetOf, type ListedTool } from "./codemode/catalog";

/** How long a prompt waits for servers with direct tools (Pi: 10 s). */
export const DIRECT_WAIT_MS = 10_000;

export interface McpManagerOptions {
  env: NodeJS.ProcessEnv;
  /** The session's folder. */
  cwd: string;
  sandbox?: ToolSandbox;
  /** --tools/--exclude-tools as far as they concern MCP tools. */
  selected(name: string): boolean;
  /** A server failed (once per failure), or a sign-in ended: the client is told. */
  report(message: string, kind?: NoticeKind): void;
  /** The declared MCP tools changed. */
  toolsChanged(): void;
  /** The agent's other declared tools (built-in, extension, host tools): codemode scripts may call them too. */
  declaredTools(): readonly AnyAgentTool[];
  /** Where codemode's store() values live (the session); memory without it. */
  codemodeStore?: CodemodeStore;
  clientVersion: string;
  /** The agent dir: OAuth sign-ins are kept in its mcp-auth.json. */
  agentDir?: string;
  /** settings.json's `codemode` (default: `on`, 3000 estimated tokens). */
  codemode?: { mode: "on" | "only"; inlineBudget: number };
  /** A tool's prompt guidelines (the system prompt's rules for it), carried in its codemode declaration. */
  guidelines?(tool: AnyAgentTool): readonly string[] | undefined;
}

export class McpManager {
  private readonly connections: McpConnection[];
  private entries: McpToolEntry[] = [];
  /** Names tool_search loaded: declared from then on. */
  private readonly loaded = new Set<string>();
  private readonly searchTool: AnyAgentTool;
  private readonly resourceTools: AnyAgentTool[];
  private readonly codemodeTool: AnyAgentTool;
  /** OAuth sign-ins and sign-outs (mcp_login / mcp_logout). */
  readonly signIns: McpSignIns;

  constructor(
    servers: readonly McpServerConfig[],
    private readonly options: McpManagerOptions,
  ) {
    this.connections = servers.map((config) => new McpConnection(config, { env: options.env, cwd: options.cwd, ...(options.sandbox ? { sandbox: options.sandbox } : {}), ...(options.agentDir ? { authDir: options.agentDir } : {}), clientVersion: options.clientVersion, changed: (c) => this.changed(c) }));
    this.signIns = new McpSignIns({ connections: this.connections, ...(options.agentDir ? { agentDir: options.agentDir } : {}), report: (message, kind) => options.report(message, kind) });
    this.searchTool = createToolSearchTool({
      searchable: () => [
        ...this.entries.filter((e) => (e.exposure === "deferred" || e.exposure === "codemode") && !this.loaded.has(e.name)).map((e) => e.searchable),
        ...(this.resourceExposure() === "deferred" ? this.resourceTools.filter((t) => options.selected(t.name) && !this.loaded.has(t.name)).map((t) => ({ name: t.name, description: t.description, parameterText: "server uri cursor", serverText: "mcp resources" })) : []),
      ],
      load: (names) => {
        names.forEach((n) => this.loaded.add(n));
        if (names.length > 0) options.toolsChanged();
      },
      settled: () => this.settled(),
    });
    this.resourceTools = createResourceTools({ servers: () => this.resourceServers(), settled: () => this.settled() });
    this.codemodeTool = createCodemodeTool({ callable: () => this.scriptTools(), settled: (reach) => this.settled(reach), ...(options.codemodeStore ? { store: options.codemodeStore } : {}) });
  }

  /** Starts every enabled server; returns at once. */
  start(): void {
    for (const connection of this.connections) void connection.connect();
  }

  private readonly reported = new WeakMap<McpConnection, string>();

  private changed(connection: McpConnection): void {
    // Reported once per failure: a server that came back and fails again is reported again.
    if (connection.state === "connected") this.reported.delete(connection);
    if ((connection.state === "failed" || connection.state === "needs-auth") && connection.error && this.reported.get(connection) !== connection.error) {
      this.reported.set(connection, connection.error);
      this.options.report(connection.state === "needs-auth" ? signInNotice(connection.config.name) : `MCP server ${connection.config.name} failed: ${connection.error}`);
    }
    this.entries = buildEntries(this.connections, this.options.selected);
    this.options.toolsChanged();
  }

  private configuredWith(exposure: "deferred" | "codemode"): boolean {
    return this.connections.some(({ config }) => config.enabled && [config.exposure, ...Object.values(config.toolExposure)].includes(exposure));
  }

  /** Whether `codemode` is declared: a server has codemode tools, and --exclude-tools does not remove it. */
  private hasCodemode(): boolean {
    return this.configuredWith("codemode") && this.options.selected(CODEMODE);
  }

  /**
   * Whether `tool_search` is declared (from the start): a server has deferred tools, or codemode
   * tools while codemode itself is excluded (they are then reached through tool_search).
   */
  private hasIndirect(): boolean {
    return this.configuredWith("deferred") || (this.configuredWith("codemode") && !this.hasCodemode());
  }

  /** What codemode scripts may call: the agent's declared tools and every MCP tool not hidden (nor filtered out). */
  private scriptTools(): CallableTool[] {
    const namespaces = new Map<string, ScriptNamespace>(
      this.connections.map((c) => [c.config.name, { name: mcpNamespace(c.config.name), server: c.config.name, ...(c.config.description ? { description: c.config.description } : c.instructions ? { description: (c.instructions.split("\n", 1)[0] ?? "").trim() } : {}), ...(c.instructions ? { instructions: c.instructions } : {}) }]),
    );
    const mcpNames = new Set(this.entries.map((e) => e.name));
    const own: CallableTool[] = this.options
      .declaredTools()
      .filter((t) => t.name !== CODEMODE && t.name !== TOOL_SEARCH && !mcpNames.has(t.name) && !(RESOURCE_TOOL_NAMES as readonly string[]).includes(t.name))
      .map((tool) => {
        const guidelines = this.options.guidelines?.(tool);
        return { tool, mcp: false, searchable: { name: tool.name, description: tool.description, parameterText: "", serverText: "" }, ...(guidelines?.length ? { guidelines } : {}) };
      });
    const mcp: CallableTool[] = this.entries
      .filter((e) => e.exposure !== "hidden")
      .map((e) => ({ tool: e.agentTool, mcp: true, ...(namespaces.get(e.server) ? { namespace: namespaces.get(e.server)! } : {}), searchable: e.searchable }));
    const resources: CallableTool[] = this.resourceExposure() === undefined ? [] : this.resourceTools.filter((t) => this.options.selected(t.name)).map((tool) => ({ tool, mcp: false, searchable: { name: tool.name, description: tool.description, parameterText: "server uri cursor", serverText: "mcp resources" } }));
    return [...own, ...mcp, ...resources];
  }

  /** The tools the MCP part adds to the system prompt's tool list (codemode), with their rules. */
  promptTools(): { name: string; description: string; snippet: string; guidelines: readonly string[] }[] {
    return this.hasCodemode() ? [{ name: CODEMODE, description: CODEMODE_DESCRIPTION, snippet: CODEMODE_SNIPPET, guidelines: CODEMODE_GUIDELINES }] : [];
  }

  /**
   * Codemode's `only` mode (settings.json `codemode.mode`): the tools declared to the model by
   * exposure (the agent's own, direct MCP tools, direct resource tools) are hidden from it and
   * listed in codemode's description instead; scripts call them.
   */
  hidesDeclaredTools(): boolean {
    return this.hasCodemode() && this.options.codemode?.mode === "only";
  }

  /**
   * The tools a request declares: all but, in `only` mode, those codemode's description lists (the
   * agent's own, direct MCP tools, direct resource tools); codemode, tool_search and the tools
   * tool_search loaded stay. The others stay callable (scripts reach them through the nested runner).
   */
  declared(tools: AnyAgentTool[]): AnyAgentTool[] {
    if (!this.hidesDeclaredTools()) return tools;
    const hidden = this.hiddenTest();
    return tools.filter((t) => !hidden(t.name));
  }

  /** Whether the system prompt lists one of the agent's own tools (not in `only` mode). */
  shows(name: string): boolean {
    return !this.hidesDeclaredTools() || !this.hiddenTest()(name);
  }

  private hiddenTest(): (name: string) => boolean {
    const exposure = new Map(this.entries.map((e) => [e.name, e.exposure]));
    const resourcesDirect = this.resourceExposure() === "direct";
    return (name) => {
      if (name === CODEMODE || name === TOOL_SEARCH) return false;
      const mcp = exposure.get(name);
      if (mcp !== undefined) return mcp === "direct";
      if ((RESOURCE_TOOL_NAMES as readonly string[]).includes(name)) return resourcesDirect;
      return true;
    };
  }

  /**
   * What codemode's description lists: nothing in `on` mode (every MCP tool a script reaches
   * without a declaration is deferred, and deferred tools are never listed, so the description
   * does not change while servers connect); in `only` mode every callable tool declared by exposure.
   */
  private listedTools(): ListedTool[] {
    if (!this.hidesDeclaredTools()) return [];
    const hidden = this.hiddenTest();
    return this.scriptTools()
      .filter((c) => hidden(c.tool.name))
      .map((c) => ({ name: c.tool.name, declaration: declarationOf(c), ...(c.namespace ? { namespace: { name: c.namespace.name, ...(c.namespace.description ? { description: c.namespace.description } : {}) } } : {}) }));
  }

  private described: { text: string; tool: AnyAgentTool } | undefined;

  /** The codemode tool with its description for the tools listed now (one copy while that text holds). */
  private codemode(): AnyAgentTool {
    const text = catalogDescription(this.listedTools(), inlineBudgetOf(this.options.codemode?.inlineBudget));
    if (text === CODEMODE_DESCRIPTION) return this.codemodeTool;
    if (this.described?.text !== text) this.described = { text, tool: { ...this.codemodeTool, description: text } };
    return this.described.tool;
  }

  /** Servers whose resources the resource tools reach: connected once, enabled, not hidden as a whole. */
  private resourceServers(): McpConnection[] {
    return this.connections.filter((c) => c.hasResources && c.config.exposure !== "hidden" && c.state !== "disabled" && c.state !== "closed");
  }

  /**
   * The resource tools' exposure: the widest among the servers with resources (direct, else
   * deferred/codemode), undefined when no server offers resources.
   */
  private resourceExposure(): "direct" | "deferred" | undefined {
    const servers = this.resourceServers();
    if (servers.length === 0) return undefined;
    return servers.some((c) => c.config.exposure === "direct") ? "direct" : "deferred";
  }

  /** The MCP tools declared to the model now, tool_search first when any server needs it. */
  tools(): AnyAgentTool[] {
    const declared = this.entries.filter((e) => e.exposure === "direct" || ((e.exposure === "deferred" || e.exposure === "codemode") && this.loaded.has(e.name)));
    const resources = this.resourceExposure();
    const resourceTools = this.resourceTools.filter((t) => this.options.selected(t.name) && (resources === "direct" || (resources === "deferred" && this.loaded.has(t.name))));
    const search = this.hasIndirect() && this.options.selected(TOOL_SEARCH) ? [this.searchTool] : [];
    if (!this.hasCodemode()) return [...search, ...declared.map((e) => e.agentTool), ...resourceTools];
    // `only`: no notes; requests leave out what codemode's description lists (declared()).
    if (this.hidesDeclaredTools()) return [this.codemode(), ...search, ...declared.map((e) => e.agentTool), ...resourceTools];
    const mcp = declared.map((e) => withNote(e.agentTool, scriptCallNote(e.name, e.outputFields ? { outputFields: e.outputFields } : {})));
    return [this.codemode(), ...search, ...mcp, ...this.withScriptNotes(resourceTools)];
  }

  /**
   * The agent's declared tools as the model sees them while codemode is declared: each says how a
   * script calls it (Pi's `Codemode: tools.x(args) resolves to …` line). Unchanged without
   * codemode; none in `only` mode (codemode lists them).
   */
  withScriptNotes(tools: readonly AnyAgentTool[]): AnyAgentTool[] {
    if (!this.hasCodemode() || this.hidesDeclaredTools()) return [...tools];
    return tools.map((t) => (t.name === CODEMODE || t.name === TOOL_SEARCH ? t : withNote(t, scriptCallNote(t.name, undefined))));
  }

  /** Annotations of an MCP tool by its name, for the permission gates. */
  annotations(name: string): { readOnly: boolean; destructive: boolean } | undefined {
    // A script changes nothing by itself: each of its calls passes the gates on its own (plan mode included).
    if (name === CODEMODE && this.hasCodemode()) return { readOnly: true, destructive: false };
    if ((RESOURCE_TOOL_NAMES as readonly string[]).includes(name) && this.resourceTools.some((t) => t.name === name)) return { readOnly: true, destructive: false };
    const entry = this.entries.find((e) => e.name === name);
    return entry ? { readOnly: entry.readOnly, destructive: entry.destructive } : undefined;
  }

  /** Before a prompt: waits (at most `timeoutMs`) for the servers that have direct tools. */
  async beforePrompt(timeoutMs = DIRECT_WAIT_MS): Promise<void> {
    const direct = this.connections.filter((c) => c.state === "connecting" && (c.config.exposure === "direct" || Object.values(c.config.toolExposure).includes("direct")));
    if (direct.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(direct.map((c) => c.connect())), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** Resolves once every enabled server (or each one `reach` names, for a codemode script) has connected or failed. */
  async settled(reach: ScriptReach = "all"): Promise<void> {
    const reached = (c: McpConnection): boolean => reach === "all" || reach.some((word) => word.includes(mcpNamespace(c.config.name)));
    await Promise.all(this.connections.filter((c) => c.state === "connecting" && reached(c)).map((c) => c.connect()));
  }

  /** The `mcp_servers` section of the system prompt, or undefined when no server has tools behind tool_search. */
  systemSection(): string | undefined {
    const codemode = this.hasCodemode();
    return serversSection(this.connections.filter((c) => c.config.enabled).map((c) => ({ name: c.config.name, exposures: [c.config.exposure, ...Object.values(c.config.toolExposure)], summary: c.config.description ?? c.instructions })), codemode);
  }

  status(): McpServerStatus[] {
    // An ACP client's servers exist only in --mode acp, which has no get_mcp_servers: the RPC's sources stay user/project.
    return this.connections.map((c) => ({
      name: c.config.name, source: c.config.source === "client" ? "user" : c.config.source, transport: c.config.transport, state: c.state, exposure: c.config.exposure,
      tools: c.tools.filter((t) => toolExposure(c.config, t.name) !== "hidden").length,
      ...(c.error ? { error: c.error } : {}),
    }));
  }

  /** At the host's exit: every stdio server still running is killed. */
  killNow(): void {
    for (const c of this.connections) c.killNow();
  }

  async dispose(): Promise<void> {
    this.signIns.dispose();
    await Promise.all(this.connections.map((c) => c.dispose()));
  }
}

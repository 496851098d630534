import { parseHostPattern } from "../../shared/node/sandbox/net/hosts";
import { isSandboxMode, type SandboxMode } from "../../shared/node/sandbox/policy";
import type { PermissionMode } from "../../shared/protocol";

/** Pi's command-line options, as far as an RPC host uses them; the rest are accepted and ignored. */
export interface CliOptions {
  mode: "rpc" | "acp" | "text" | "json";
  provider?: string;
  model?: string;
  models?: string[];
  apiKey?: string;
  thinking?: string;
  systemPrompt?: string;
  appendSystemPrompt: string[];
  session?: string;
  sessionId?: string;
  fork?: string;
  sessionDir?: string;
  continue: boolean;
  noSession: boolean;
  name?: string;
  tools?: string[];
  excludeTools: string[];
  noTools: boolean;
  /** Pi 1.x: no MCP servers for this run. */
  noMcp: boolean;
  noBuiltinTools: boolean;
  extensions: string[];
  noExtensions: boolean;
  skills: string[];
  noSkills: boolean;
  promptTemplates: string[];
  noPromptTemplates: boolean;
  noContextFiles: boolean;
  /** undefined: pi's default (settings); true/false: --approve / --no-approve. */
  approve?: boolean;
  /** Ours, not pi's: ask (a select dialog) before these tools run; the editor passes bash,edit,write. */
  confirmTools: string[];
  /** How long such a question waits before it counts as a denial (ms; 0: no limit). */
  confirmTimeoutMs: number;
  /** Ours, not pi's: record files before write/edit change them, in this checkpoint store (the editor's rewind). */
  checkpointDir?: string;
  /** Ours: read/write/edit/ls/find/grep refuse paths outside the working directory (the editor passes it). */
  workspaceOnly: boolean;
  /** Ours: the todo tool joins whatever tools are chosen (the editor shows the plan). */
  todoTool: boolean;
  /** Ours: the permission mode at start (ask unless given; an unknown name is ask). */
  permissionMode: PermissionMode;
  /** Ours: every process a tool starts runs in this OS sandbox (absent: none, as pi). */
  sandbox?: SandboxMode;
  /** Ours: the sandbox lets those processes reach the network. */
  sandboxNetwork: boolean;
  /** Ours: without --sandbox-network, those processes reach these hosts through a filtering proxy (net/hosts.ts patterns). */
  sandboxAllowHosts: string[];
  /** Adds seed 000's cumulative `message`/`partial` to message_update, for clients of the older Pi. */
  eventSnapshots: boolean;
  messages: string[];
}

type Setter = (options: CliOptions, value: string) => void;
const list = (value: string) => value.split(",").map((s) => s.trim()).filter(Boolean);

/** Options with a value: names (with aliases) → how the value is stored. */
const valued: Record<string, Setter> = {
  "--mode": (o, v) => (o.mode = v as CliOptions["mode"]),
  "--provider": (o, v) => (o.provider = v),
  "--model": (o, v) => (o.model = v),
  "--models": (o, v) => (o.models = list(v)),
  "--api-key": (o, v) => (o.apiKey = v),
  "--thinking": (o, v) => (o.thinking = v),
  "--system-prompt": (o, v) => (o.systemPrompt = v),
  "--append-system-prompt": (o, v) => o.appendSystemPrompt.push(v),
  "--session": (o, v) => (o.session = v),
  "--session-id": (o, v) => (o.sessionId = v),
  "--fork": (o, v) => (o.fork = v),
  "--session-dir": (o, v) => (o.sessionDir = v),
  "--name": (o, v) => (o.name = v),
  "-n": (o, v) => (o.name = v),
  "--tools": (o, v) => (o.tools = list(v)),
  "-t": (o, v) => (o.tools = list(v)),
  "--exclude-tools": (o, v) => o.excludeTools.push(...list(v)),
  "-xt": (o, v) => o.excludeTools.push(...list(v)),
  "--extension": (o, v) => o.extensions.push(v),
  "-e": (o, v) => o.extensions.push(v),
  "--skill": (o, v) => o.skills.push(v),
  "--prompt-template": (o, v) => o.promptTemplates.push(v),
  // accepted for compatibility; they only matter to pi's terminal UI
  "--theme": () => undefined,
  "--use-theme": () => undefined,
  "--tui-mode": () => undefined,
  "--export": () => undefined,
  "--confirm-tools": (o, v) => (o.confirmTools = list(v)),
  "--permission-mode": (o, v) => (o.permissionMode = v === "acceptEdits" || v === "plan" || v === "auto" ? v : "ask"),
  "--confirm-timeout": (o, v) => (o.confirmTimeoutMs = Math.max(0, Number(v) * 1000) || 0),
  "--checkpoint-dir": (o, v) => (o.checkpointDir = v),
  // An unknown mode is refused below, never taken for a weaker one.
  "--sandbox": (o, v) => (o.sandbox = v as SandboxMode),
  "--sandbox-allow-host": (o, v) => o.sandboxAllowHosts.push(...list(v)),
};

const flags: Record<string, (o: CliOptions) => void> = {
  "--continue": (o) => (o.continue = true),
  "-c": (o) => (o.continue = true),
  "--no-session": (o) => (o.noSession = true),
  "--no-tools": (o) => (o.noTools = true),
  "--no-mcp": (o) => (o.noMcp = true),
  "-nt": (o) => (o.noTools = true),
  "--no-builtin-tools": (o) => (o.noBuiltinTools = true),
  "-nbt": (o) => (o.noBuiltinTools = true),
  "--no-extensions": (o) => (o.noExtensions = true),
  "-ne": (o) => (o.noExtensions = true),
  "--no-skills": (o) => (o.noSkills = true),
  "-ns": (o) => (o.noSkills = true),
  "--no-prompt-templates": (o) => (o.noPromptTemplates = true),
  "-np": (o) => (o.noPromptTemplates = true),
  "--no-context-files": (o) => (o.noContextFiles = true),
  "-nc": (o) => (o.noContextFiles = true),
  "--approve": (o) => (o.approve = true),
  "-a": (o) => (o.approve = true),
  "--no-approve": (o) => (o.approve = false),
  "-na": (o) => (o.approve = false),
  "--event-snapshots": (o) => (o.eventSnapshots = true),
  "--workspace-only": (o) => (o.workspaceOnly = true),
  "--todo-tool": (o) => (o.todoTool = true),
  "--sandbox-network": (o) => (o.sandboxNetwork = true),
  // Accepted and ignored: pi's --offline stops its own network activity (model catalog refresh,
  // package updates), which this host never has; --verbose and the rest are for pi's terminal UI.
  "--offline": () => undefined,
  "--verbose": () => undefined,
  "--print": () => undefined,
  "-p": () => undefined,
  "--resume": () => undefined,
  "-r": () => undefined,
  "--no-themes": () => undefined,
  "--list-models": () => undefined,
};

export type ParsedCli = { kind: "run"; options: CliOptions; warnings: string[] } | { kind: "exit"; code: number; text: string };

export function parseCli(argv: readonly string[], help: string, version: string): ParsedCli {
  const options: CliOptions = {
    mode: "text", appendSystemPrompt: [], continue: false, noSession: false, excludeTools: [], noTools: false, noMcp: false,
    noBuiltinTools: false, extensions: [], noExtensions: false, skills: [], noSkills: false, promptTemplates: [],
    noPromptTemplates: false, noContextFiles: false, eventSnapshots: false, confirmTools: [], confirmTimeoutMs: 0, workspaceOnly: false, todoTool: false, permissionMode: "ask", sandboxNetwork: false, sandboxAllowHosts: [], messages: [],
  };
  const warnings: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--version" || arg === "-v") return { kind: "exit", code: 0, text: version };
    if (arg === "--help" || arg === "-h") return { kind: "exit", code: 0, text: help };
    if (arg === "--") {
      options.messages.push(...argv.slice(i + 1));
      break;
    }
    const [name, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (flags[name]) {
      flags[name](options);
    } else if (valued[name]) {
      const value = inline ?? argv[++i];
      if (value === undefined) return { kind: "exit", code: 2, text: `Missing value for ${name}` };
      valued[name](options, value);
    } else if (name.startsWith("-")) {
      // Pi extensions register flags of their own: an unknown one is not fatal.
      warnings.push(`Ignoring unknown option ${name}`);
    } else {
      options.messages.push(arg);
    }
  }
  if (options.sandbox !== undefined && !isSandboxMode(options.sandbox)) return { kind: "exit", code: 2, text: `Unknown sandbox mode: ${options.sandbox} (read-only, workspace-write or full-access)` };
  // A pattern that does not parse would match nothing: refused, so a typo is seen rather than silently closing a host.
  const badHost = options.sandboxAllowHosts.find((p) => !parseHostPattern(p));
  if (badHost !== undefined) return { kind: "exit", code: 2, text: `Not a host pattern for --sandbox-allow-host: ${JSON.stringify(badHost)} (host, *.domain, either with :port; IPv6 as [addr])` };
  if (!["rpc", "acp", "text", "json"].includes(options.mode)) return { kind: "exit", code: 2, text: `Unknown mode: ${options.mode}` };
  return { kind: "run", options, warnings };
}

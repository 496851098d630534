import * as vscode from "vscode";

/**
 * The "pi" section, read once per task: a run's end reads several settings for each session,
 * and eight sessions can end in one read of a shared process's output (each getConfiguration
 * costs a fraction of a millisecond on the extension host). A change of settings arrives in a
 * task of its own, after the microtask that forgets this one.
 */
let sectionThisTask: vscode.WorkspaceConfiguration | undefined;
const section = (): vscode.WorkspaceConfiguration => {
  if (!sectionThisTask) {
    sectionThisTask = vscode.workspace.getConfiguration("pi");
    queueMicrotask(() => (sectionThisTask = undefined));
  }
  return sectionThisTask;
};

/**
 * Plain values (not arrays or objects, which a caller could change) read since the last change of
 * any setting, while followSettings runs: the review asks whether checkpoints are on at every file
 * event of a run, and `inspect` costs ~0.2 ms each time.
 */
let remembered: Map<string, unknown> | undefined;

function remember<T>(key: string, read: () => T): T {
  if (remembered?.has(key)) return remembered.get(key) as T;
  const value = read();
  if (remembered && (value === null || typeof value !== "object")) remembered.set(key, value);
  return value;
}

/** Lets settings' plain values be remembered until a setting changes. First thing at activation: a listener before it could read a value its change has made old. */
export function followSettings(): vscode.Disposable {
  remembered = new Map();
  // The task's section too: it was read before the change (get reads the snapshot it was made from).
  const following = vscode.workspace.onDidChangeConfiguration(() => {
    sectionThisTask = undefined;
    remembered?.clear();
  });
  return {
    dispose: () => {
      following.dispose();
      remembered = undefined;
    },
  };
}

/** A value of the "pi" section as VS Code resolves it (workspace over user). */
function value<T>(key: string, fallback: T): T {
  return remember(`value:${key}`, () => section().get<T>(key, fallback));
}

/**
 * A setting that names a program or widens the agent's permissions: the user's value only, never a
 * workspace's (a cloned repository's .vscode/settings.json must not choose what runs). These are
 * declared with `"scope": "machine"` too; reading them this way does not rely on that alone.
 */
function userValue<T>(key: string, fallback: T): T {
  return remember(`user:${key}`, () => {
    const inspected = section().inspect<T>(key);
    return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
  });
}

export type TraceLevel = "off" | "messages" | "verbose";
export type ThinkingSetting = "default" | "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
export type QueueModeSetting = "default" | "all" | "one-at-a-time";
export type InterruptModeSetting = "default" | "immediate" | "wait";
export type SandboxModeSetting = "read-only" | "workspace-write" | "full-access";

/** Every setting the extension reads, in one place; defaults live in package.json. */
export const settings = {
  /** Empty: the bundled agent host. */
  get agentCommand(): string {
    return userValue<string>("agent.command", "").trim();
  },
  /** How to talk to `agentCommand`: Pi's JSONL RPC, ACP, or "auto" (ACP for the known ACP agents, extension/acp/known-agents.ts). */
  get agentProtocol(): "auto" | "pi-rpc" | "acp" {
    const value = userValue<string>("agent.protocol", "auto");
    return value === "pi-rpc" || value === "acp" ? value : "auto";
  },
  get agentArgs(): string[] {
    return userValue<string[]>("agent.args", []);
  },
  /** Tools the bundled host asks about before running them. */
  get confirmTools(): string[] {
    return userValue<string[]>("permissions.confirmTools", ["bash", "edit", "write"]);
  },
  /** The bundled host's read/write/edit/ls/find/grep refuse paths outside the workspace folder. */
  get workspaceOnly(): boolean {
    return userValue<boolean>("permissions.workspaceOnly", true);
  },
  get confirmTimeoutSeconds(): number {
    return userValue<number>("permissions.timeoutSeconds", 0);
  },
  /** The OS sandbox of what the agent runs (user settings only: a repository cannot widen it). */
  get sandboxMode(): SandboxModeSetting {
    const value = userValue<string>("sandbox.mode", "workspace-write");
    return value === "read-only" || value === "full-access" ? value : "workspace-write";
  },
  /** The bundled host's sandboxed commands may reach the network. */
  get sandboxNetwork(): boolean {
    return userValue<boolean>("sandbox.network", false);
  },
  /** Without the network on: the hosts the bundled host's sandboxed commands reach through its filtering proxy. */
  get sandboxAllowedHosts(): unknown[] {
    const value = userValue<unknown>("sandbox.allowedHosts", []);
    return Array.isArray(value) ? value : [];
  },
  /** pi/omp run inside the sandbox's filesystem boundary as a whole. */
  get sandboxOtherAgents(): boolean {
    return userValue<boolean>("sandbox.otherAgents", true);
  },
  /**
   * VS Code's MCP servers the user offered to the bundled host (`origin:name:digest`, written by
   * **Pi: Offer VS Code's MCP Servers to Pi…**). User settings only: a repository must not choose
   * what the agent runs.
   */
  get vscodeMcpServers(): string[] {
    const value = userValue<unknown>("mcp.vscodeServers", []);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  },
  /**
   * The bundled host's sessions share one process, each in a worker thread (issue 31: an extra
   * session then costs ~0.5 x a bare Node process instead of ~1.6 x; extension/supervision/pool/).
   * Read at each start of an agent: a change applies to agents started after it.
   */
  get agentShareProcess(): boolean {
    return userValue<boolean>("agent.shareProcess", true);
  },
  get agentEnv(): Record<string, string> {
    return userValue<Record<string, string>>("agent.env", {});
  },
  /**
   * VS Code's own proxy (http.proxy, http.noProxy), for the key gateway when the agent's
   * configuration names none. User settings only: a repository must not choose where keys travel.
   */
  get editorProxy(): { proxy?: string; noProxy?: string[] } {
    const http = vscode.workspace.getConfiguration("http");
    const proxy = http.inspect<string>("proxy")?.globalValue;
    const noProxy = http.inspect<string[]>("noProxy")?.globalValue;
    return {
      ...(typeof proxy === "string" && proxy.trim() ? { proxy: proxy.trim() } : {}),
      ...(Array.isArray(noProxy) ? { noProxy: noProxy.filter((entry): entry is string => typeof entry === "string") } : {}),
    };
  },
  /** Restart a crashed agent by itself (with back-off, up to a limit). */
  get autoRestart(): boolean {
    return value<boolean>("agent.autoRestart", true);
  },
  /** Bundled host only: --provider. Empty: the agent's own default. */
  get defaultProvider(): string {
    return value<string>("model.provider", "").trim();
  },
  /** Bundled host only: --model. Empty: the agent's own default. */
  get defaultModel(): string {
    return value<string>("model.id", "").trim();
  },
  get thinkingLevel(): ThinkingSetting {
    return value<ThinkingSetting>("model.thinkingLevel", "default");
  },
  get steeringMode(): QueueModeSetting {
    return value<QueueModeSetting>("queue.steeringMode", "default");
  },
  get followUpMode(): QueueModeSetting {
    return value<QueueModeSetting>("queue.followUpMode", "default");
  },
  get interruptMode(): InterruptModeSetting {
    return value<InterruptModeSetting>("queue.interruptMode", "default");
  },
  get confirmStyle(): "quickPick" | "modal" {
    return value<"quickPick" | "modal">("dialogs.confirmStyle", "quickPick");
  },
  /** editor_edit shows each change in a diff to accept or reject before it reaches the buffer. */
  get reviewEdits(): boolean {
    return userValue<boolean>("hostTools.reviewEdits", true);
  },
  /** VS Code's language models (Copilot's, other extensions') offered to the agent as the vscode-lm provider. */
  get vscodeModels(): boolean {
    return userValue<boolean>("vscodeModels.enabled", true);
  },
  /** Tools other extensions register in VS Code (vscode.lm.tools) offered to the agent: by name, none by default. */
  get vscodeTools(): string[] {
    return userValue<string[]>("vscodeTools", []);
  },
  /** Where extension dialogs appear: native UI, a card in the chat, or both (first answer wins). */
  get dialogSurface(): "native" | "inline" | "both" {
    return value<"native" | "inline" | "both">("dialogs.surface", "both");
  },
  /** The program that opens a session in Pi's terminal UI; empty: the agent command, else "pi". */
  get terminalCommand(): string {
    return userValue<string>("terminal.command", "").trim();
  },
  /** When to notify that a session finished or waits for an answer. */
  get attention(): "whenUnfocused" | "always" | "never" {
    return value<"whenUnfocused" | "always" | "never">("notifications.attention", "whenUnfocused");
  },
  get trace(): TraceLevel {
    return value<TraceLevel>("trace", "off");
  },
  /**
   * Record files before the agent changes them, so Rewind can restore them. The user's value only:
   * the records and their budget are the user's, across every project, and a repository turning
   * them off would take away what undoes the agent's changes.
   */
  get checkpointsEnabled(): boolean {
    return userValue<unknown>("checkpoints.enabled", true) !== false;
  },
  /** The checkpoint store's budget in bytes (the user's value only; anything but a finite number is the default). */
  get checkpointsMaxBytes(): number {
    const megabytes = userValue<unknown>("checkpoints.maxMegabytes", 200);
    return (typeof megabytes === "number" && Number.isFinite(megabytes) ? Math.max(1, megabytes) : 200) * 1024 * 1024;
  },
};

/** Changing these restarts the agent (the current session is reopened). */
export const restartWhenChanged = ["http.proxy", "http.noProxy", "pi.agent.command", "pi.agent.protocol", "pi.agent.args", "pi.agent.env", "pi.permissions.confirmTools", "pi.permissions.timeoutSeconds", "pi.permissions.workspaceOnly", "pi.sandbox.mode", "pi.sandbox.network", "pi.sandbox.allowedHosts", "pi.sandbox.otherAgents", "pi.vscodeModels.enabled", "pi.vscodeTools", "pi.mcp.vscodeServers"] as const;

/** Changing these is applied to the running agent through set_* commands. */
export const applyWhenChanged = ["pi.model.provider", "pi.model.id", "pi.model.thinkingLevel", "pi.queue.steeringMode", "pi.queue.followUpMode", "pi.queue.interruptMode"] as const;

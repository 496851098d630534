/**
 * What `pi.sendMessage`, `pi.appendEntry`, `pi.setSessionName` and the other session actions do
 * to our session, with the events pi 0.87.1 sends for them: a custom message outside a run
 * gives `message_start`/`message_end` (and a `custom_message` entry), `appendEntry` gives
 * `entry_appended`, `setSessionName` gives `session_info_changed`.
 */
import type { CustomMessage, SlashCommand } from "../../../shared/protocol";
import type { Model, ThinkingLevel } from "../../ai/types";
import type { ProviderOverride } from "../../ai/models/registry";
import type { AnyAgentTool } from "../../agent/tool";
import type { HostSession } from "../host-session/host-session";
import { appendCustomMessage } from "../host-session/custom-message";
import type { ExtensionHostOptions } from "./context";
import type { Content, CustomMessageInput, ExecOptions, ExecResult } from "./types";
import { spawnTracked } from "../../tools/process-groups";
import { plainLaunch } from "../../tools/tool-sandbox";

export class SessionActions {
  /** The built-in and extension tools, so setActiveTools can bring one back; tools a client sets (host tools) are not among them. */
  private known: readonly AnyAgentTool[] = [];

  constructor(
    private readonly options: ExtensionHostOptions,
    private readonly extensionCommands: () => SlashCommand[],
  ) {}

  private get session(): HostSession {
    return this.options.session;
  }

  /** registerProvider on an existing provider: false when this host cannot apply it (an unknown provider). */
  overrideProvider(provider: string, override: ProviderOverride | undefined): boolean {
    return this.options.models.overrideProvider?.(provider, override) ?? false;
  }

  setKnownTools(tools: readonly AnyAgentTool[]): void {
    this.known = [...tools];
  }

  private isKnown(name: string): boolean {
    return this.known.some((t) => t.name === name);
  }

  sendMessage(input: CustomMessageInput, options: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" } = {}): void {
    const message: CustomMessage = {
      role: "custom",
      customType: input.customType,
      content: input.content,
      display: input.display ?? true,
      ...(input.details !== undefined ? { details: input.details } : {}),
      timestamp: Date.now(),
    };
    const session = this.session;
    if (session.isStreaming) {
      if (options.deliverAs === "nextTurn") void session.waitForSettled().then(() => this.appendCustom(message));
      else session.promptMessage(message, options.deliverAs === "followUp" ? "followUp" : "steer");
    } else if (options.triggerTurn) {
      session.promptMessage(message);
    } else {
      this.appendCustom(message);
    }
  }

  /** Into the conversation and the session, without a run. */
  private appendCustom(message: CustomMessage): void {
    appendCustomMessage(this.session, message);
  }

  sendUserMessage(content: string | Content, options: { deliverAs?: "steer" | "followUp" } = {}): void {
    const parts = typeof content === "string" ? [{ type: "text" as const, text: content }] : content;
    const text = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
    const images = parts.filter((p) => p.type === "image");
    this.session.prompt(text, images, options.deliverAs);
  }

  appendEntry(customType: string, data?: unknown): void {
    const entry = this.session.sessions.append({ type: "custom", customType, ...(data !== undefined ? { data } : {}) });
    this.session.emit({ type: "entry_appended", entry });
  }

  setSessionName(name: string): void {
    const clean = name.replace(/[\r\n]+/g, " ").trim();
    if (!clean) throw new Error("Session name cannot be empty");
    this.session.sessions.append({ type: "session_info", name: clean });
    this.session.emit({ type: "session_info_changed", name: clean });
  }

  getSessionName(): string | undefined {
    return this.session.sessions.name;
  }

  setLabel(entryId: string, label: string | undefined): void {
    this.session.sessions.append({ type: "label", targetId: entryId, ...(label !== undefined ? { label } : {}) });
  }

  getActiveTools(): string[] {
    return this.session.agent.tools.map((t) => t.name);
  }

  getAllTools(): AnyAgentTool[] {
    return [...this.known, ...this.session.agent.tools.filter((t) => !this.isKnown(t.name))];
  }

  /** Unknown names are ignored; tools the client set (host tools) stay. */
  setActiveTools(names: string[]): void {
    const wanted = new Set(names);
    const clientTools = this.session.agent.tools.filter((t) => !this.isKnown(t.name));
    this.session.agent.setTools([...this.known.filter((t) => wanted.has(t.name)), ...clientTools]);
  }

  getCommands(): SlashCommand[] {
    return [...this.extensionCommands(), ...this.options.resourceCommands()];
  }

  async setModel(model: Model): Promise<boolean> {
    const known = this.options.models.find(model.provider, model.id);
    if (!known) return false;
    this.session.agent.model = known;
    this.session.hasModel = true;
    this.session.sessions.append({ type: "model_change", provider: known.provider, modelId: known.id });
    return true;
  }

  getThinkingLevel(): ThinkingLevel {
    return this.session.agent.thinkingLevel;
  }

  setThinkingLevel(level: ThinkingLevel): void {
    this.session.setThinkingLevel(level);
  }

  /** In the OS sandbox when there is one (no "run outside" question: the extension reads the failure). */
  async exec(command: string, args: string[], options: ExecOptions = {}): Promise<ExecResult> {
    const cwd = options.cwd ?? this.options.cwd;
    const argv = [command, ...args];
    const launch = this.options.sandbox ? await this.options.sandbox.launch(argv, cwd, argv.join(" "), options.signal) : plainLaunch(argv);
    if ("refused" in launch) return { stdout: "", stderr: launch.refused, code: 1, killed: false };
    return new Promise((resolve) => {
      // In a process group of its own, tracked as the shells' are: what it leaves ends with the host.
      const { child, release } = spawnTracked(launch.file, launch.args, { cwd, env: this.options.env ?? process.env, ...(options.signal ? { signal: options.signal } : {}) }, launch.release);
      let stdout = "";
      let stderr = "";
      let killed = false;
      const timer = options.timeout ? setTimeout(() => ((killed = true), child.kill("SIGTERM")), options.timeout) : undefined;
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", (error) => {
        killed ||= options.signal?.aborted === true;
        if (!killed) stderr += error.message;
      });
      child.on("close", (code) => {
        release();
        if (timer) clearTimeout(timer);
        resolve({ stdout, stderr, code: code ?? 1, killed: killed || options.signal?.aborted === true });
      });
    });
  }
}

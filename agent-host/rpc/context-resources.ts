/**
 * The context resources of a host (context files, skills, prompt templates, the system prompt),
 * read when first needed (a prompt, get_commands) rather than at start-up.
 */
import * as os from "node:os";
import type { SlashCommand } from "../../shared/protocol";
import type { AnyAgentTool } from "../agent/tool";
import { buildResourceCommands, buildSystemPromptSections, expandSlashCommand, loadContextResources, renderSystemPrompt, type PromptTool } from "../session/context";
import type { CliOptions } from "./cli-options";
import type { FirstReadTrust } from "./first-read-trust";

type Resources = ReturnType<typeof loadContextResources>;

export class LazyContextResources {
  private loaded: Resources | undefined;
  /** The trust the resources were loaded with: they are read again when it changes. */
  private loadedTrusted: boolean | undefined;
  private sections: Record<string, string> | undefined;

  constructor(
    private readonly options: CliOptions,
    private readonly where: { cwd: string; agentDir: string; trust: FirstReadTrust },
    private readonly tools: readonly AnyAgentTool[],
    private readonly warn: (message: string) => void,
  ) {}

  /** Asks about project resources that appeared since start-up (first-read-trust.ts); call before a prompt. */
  async decideTrust(): Promise<void> {
    await this.where.trust.decide();
  }

  get resources(): Resources {
    const trusted = this.where.trust.trusted;
    if (this.loaded && this.loadedTrusted === trusted) return this.loaded;
    const { options, where } = this;
    this.sections = undefined;
    this.loadedTrusted = trusted;
    this.loaded = loadContextResources({
      cwd: where.cwd, agentDir: where.agentDir, homeDir: os.homedir(), allowProject: trusted, noContextFiles: options.noContextFiles, noSkills: options.noSkills,
      skillPaths: options.skills, noPromptTemplates: options.noPromptTemplates, promptTemplatePaths: options.promptTemplates,
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}), appendSystemPrompt: options.appendSystemPrompt,
    });
    this.loaded.diagnostics.forEach((d) => this.warn(`${d.path ?? ""} ${d.message}`.trim()));
    return this.loaded;
  }

  /** Built with the first prompt: the date in it costs the time-zone set-up, which start-up need not pay. */
  systemSections(): Record<string, string> {
    const { contextFiles, skills, prompt } = this.resources; // first: a change of trust drops the sections
    return (this.sections ??= buildSystemPromptSections({
      cwd: this.where.cwd, tools: [...this.tools.filter((t) => this.shownTool?.(t.name) ?? true), ...(this.extraTools?.() ?? [])], contextFiles, skills,
      ...(prompt.customPrompt !== undefined ? { customPrompt: prompt.customPrompt } : {}),
      appendPrompts: prompt.appendPrompts,
    }));
  }

  /** Whether the prompt lists one of the host's own tools (MCP's codemode `only` mode hides them): default, all. */
  shownTool: ((name: string) => boolean) | undefined;

  /** Tools other parts of the host declare from the start (MCP's `codemode`), listed after the host's own. */
  extraTools: (() => readonly PromptTool[]) | undefined;

  /** Sections other parts of the host add (MCP's `mcp_servers`), after the context's own. */
  extraSections: (() => Record<string, string>) | undefined;
  private lastExtra: string | undefined;

  /** The context's sections and the extra ones, as the system prompt has them. */
  allSections(): Record<string, string> {
    const own = this.systemSections();
    if (!this.extraSections) return own;
    const extra = this.extraSections();
    this.lastExtra = JSON.stringify(extra);
    return { ...own, ...extra };
  }

  /** Whether the extra sections differ from those the last prompt was built with. */
  extraChanged(): boolean {
    return this.extraSections !== undefined && this.lastExtra !== undefined && JSON.stringify(this.extraSections()) !== this.lastExtra;
  }

  systemPrompt(): string {
    return renderSystemPrompt(this.allSections());
  }

  /** `/skill:x` and `/template args` expanded; other text unchanged. */
  expand(text: string): string {
    return expandSlashCommand(text, this.resources).text;
  }

  commands(): SlashCommand[] {
    return buildResourceCommands(this.resources.templates, this.resources.skills);
  }
}

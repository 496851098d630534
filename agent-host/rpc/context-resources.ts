/**
 * The context resources of a host (context files, skills, prompt templates, the system prompt),
 * read when first needed (a prompt, get_commands) rather than at start-up.
 */
import * as os from "node:os";
import type { SlashCommand } from "../../shared/protocol";
import type { AnyAgentTool } from "../agent/tool";
import { buildResourceCommands, buildSystemPromptSections, expandSlashCommand, loadContextResources, renderSystemPrompt } from "../session/context";
import type { CliOptions } from "./cli-options";

type Resources = ReturnType<typeof loadContextResources>;

export class LazyContextResources {
  private loaded: Resources | undefined;
  private sections: Record<string, string> | undefined;

  constructor(
    private readonly options: CliOptions,
    private readonly where: { cwd: string; agentDir: string; projectTrusted: boolean },
    private readonly tools: readonly AnyAgentTool[],
    private readonly warn: (message: string) => void,
  ) {}

  get resources(): Resources {
    if (this.loaded) return this.loaded;
    const { options, where } = this;
    this.loaded = loadContextResources({
      cwd: where.cwd, agentDir: where.agentDir, homeDir: os.homedir(), allowProject: where.projectTrusted, noContextFiles: options.noContextFiles, noSkills: options.noSkills,
      skillPaths: options.skills, noPromptTemplates: options.noPromptTemplates, promptTemplatePaths: options.promptTemplates,
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}), appendSystemPrompt: options.appendSystemPrompt,
    });
    this.loaded.diagnostics.forEach((d) => this.warn(`${d.path ?? ""} ${d.message}`.trim()));
    return this.loaded;
  }

  /** Built with the first prompt: the date in it costs the time-zone set-up, which start-up need not pay. */
  systemSections(): Record<string, string> {
    const { contextFiles, skills, prompt } = this.resources;
    return (this.sections ??= buildSystemPromptSections({
      cwd: this.where.cwd, tools: this.tools, contextFiles, skills,
      ...(prompt.customPrompt !== undefined ? { customPrompt: prompt.customPrompt } : {}),
      appendPrompts: prompt.appendPrompts,
    }));
  }

  systemPrompt(): string {
    return renderSystemPrompt(this.systemSections());
  }

  /** `/skill:x` and `/template args` expanded; other text unchanged. */
  expand(text: string): string {
    return expandSlashCommand(text, this.resources).text;
  }

  commands(): SlashCommand[] {
    return buildResourceCommands(this.resources.templates, this.resources.skills);
  }
}

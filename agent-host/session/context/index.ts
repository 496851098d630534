/**
 * Everything a session reads from a Pi user's setup at startup (and on reload), in one call:
 * context files, skills, prompt templates and the custom/appended system prompt. Options
 * mirror pi's CLI flags. `allowProject` is the project (workspace) trust decision: without it,
 * nothing is read from `<cwd>/.pi/` or project `.agents/skills`; context files (AGENTS.md,
 * CLAUDE.md) load either way, as in pi.
 */
import { loadContextFiles, type ContextFile } from "./context-files";
import { loadPromptTemplates, type PromptTemplate } from "./prompt-templates";
import type { ResourceDiagnostic } from "./resources";
import { loadSkills, type Skill } from "./skills";
import { resolvePromptSources, type PromptSources } from "./system-prompt";

export interface ContextResourceOptions {
  cwd: string;
  agentDir: string;
  homeDir: string;
  allowProject: boolean;
  /** `--no-context-files` */
  noContextFiles?: boolean;
  /** `--no-skills` */
  noSkills?: boolean;
  /** `--skill` values */
  skillPaths?: readonly string[];
  /** `--no-prompt-templates` */
  noPromptTemplates?: boolean;
  /** `--prompt-template` values */
  promptTemplatePaths?: readonly string[];
  /** `--system-prompt` */
  systemPrompt?: string;
  /** `--append-system-prompt` values */
  appendSystemPrompt?: readonly string[];
}

export interface ContextResources {
  contextFiles: ContextFile[];
  skills: Skill[];
  templates: PromptTemplate[];
  prompt: PromptSources;
  /** Every problem found, in load order: show them, never fail on them. */
  diagnostics: ResourceDiagnostic[];
}

export function loadContextResources(options: ContextResourceOptions): ContextResources {
  const { cwd, agentDir, homeDir, allowProject } = options;
  const diagnostics: ResourceDiagnostic[] = [];
  const contextFiles = loadContextFiles({ cwd, agentDir, enabled: !options.noContextFiles, onWarning: (d) => diagnostics.push(d) });
  const skills = loadSkills({ cwd, agentDir, homeDir, allowProject, includeDefaults: !options.noSkills, extraPaths: options.skillPaths ?? [] });
  const templates = loadPromptTemplates({
    cwd, agentDir, homeDir, allowProject, includeDefaults: !options.noPromptTemplates, extraPaths: options.promptTemplatePaths ?? [],
  });
  const prompt = resolvePromptSources({
    cwd, agentDir, allowProject,
    ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
    ...(options.appendSystemPrompt ? { appendSystemPrompt: options.appendSystemPrompt } : {}),
  });
  diagnostics.push(...skills.diagnostics, ...templates.diagnostics, ...prompt.diagnostics);
  return { contextFiles, skills: skills.skills, templates: templates.templates, prompt, diagnostics };
}

export * from "./commands";
export * from "./context-files";
export * from "./prompt-templates";
export * from "./resources";
export * from "./skills";
export * from "./system-prompt";

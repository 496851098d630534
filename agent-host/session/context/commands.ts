/**
 * The skill and prompt-template part of the RPC `get_commands` answer, and the expansion of a
 * typed `/command` before it reaches the model, both as pi 0.87.1 does them. pi lists extension
 * commands first (source "extension", added by whoever owns extensions), then templates in load
 * order as `{name, description, source:"prompt", sourceInfo}`, then skills as
 * `{name:"skill:<name>", description, source:"skill", sourceInfo}`. Skills hidden from the model
 * (`disable-model-invocation`) are still listed.
 */
import { expandPromptTemplate, type PromptTemplate } from "./prompt-templates";
import type { SourceInfo } from "./resources";
import { expandSkillCommand, type Skill } from "./skills";

export interface ResourceCommand {
  name: string;
  description?: string;
  source: "prompt" | "skill";
  sourceInfo: SourceInfo;
}

export function buildResourceCommands(templates: readonly PromptTemplate[], skills: readonly Skill[]): ResourceCommand[] {
  return [
    ...templates.map((t): ResourceCommand => ({ name: t.name, description: t.description, source: "prompt", sourceInfo: t.sourceInfo })),
    ...skills.map((s): ResourceCommand => ({ name: `skill:${s.name}`, description: s.description, source: "skill", sourceInfo: s.sourceInfo })),
  ];
}

export interface ExpandedInput {
  text: string;
  /** A skill file that could not be read (the text is then left as typed). */
  error?: { path: string; message: string };
}

/**
 * What pi sends for a typed prompt (also steer and follow-up): `/skill:name args` expanded
 * first, then `/template args`; other text unchanged. Extension commands are the caller's.
 */
export function expandSlashCommand(text: string, resources: { skills: readonly Skill[]; templates: readonly PromptTemplate[] }): ExpandedInput {
  const skill = expandSkillCommand(text, resources.skills);
  const expanded = expandPromptTemplate(skill.text, resources.templates);
  return skill.error ? { text: expanded, error: skill.error } : { text: expanded };
}

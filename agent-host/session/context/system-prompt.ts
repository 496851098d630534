/**
 * The system prompt, in named sections like pi 0.87.1's (its `role:"system"` message carries
 * them as `sections`): `preamble` (plain), then each other section wrapped as `<name>\n…\n</name>`,
 * all joined by blank lines. Order: preamble, tools, rules, addendum, project_context, skills,
 * cwd, date. A custom prompt (`--system-prompt`, `.pi/SYSTEM.md`, `<agentDir>/SYSTEM.md`)
 * replaces preamble, tools and rules; the rest stays. The wording of the default sections is
 * ours; the context-file and skill-list formats are pi's. Unlike pi 0.87.1 (which dropped it)
 * we state the date, by day only so the prompt stays cacheable within a day.
 */
import { errorText } from "../../../shared/error-text";
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ContextFile } from "./context-files";
import { PROJECT_DIR_NAME, readText, type ResourceDiagnostic } from "./resources";
import type { Skill } from "./skills";

export interface PromptTool {
  name: string;
  /** The tool's description; its first line is what the prompt lists. */
  description: string;
  /** A one-line summary to list instead of the description's first line. */
  snippet?: string;
  /** Rules for using the tool; default: ours for the built-in read/edit/write tools. */
  guidelines?: readonly string[];
}

export interface SystemPromptInput {
  cwd: string;
  /** Active tools, in the order they are offered. */
  tools: readonly PromptTool[];
  contextFiles: readonly ContextFile[];
  skills: readonly Skill[];
  /** Replaces the default preamble, tool list and rules. */
  customPrompt?: string;
  /** Appended (joined by blank lines) as the `addendum` section. */
  appendPrompts?: readonly string[];
  /** Default: today. A string is used as written. */
  date?: Date | string;
}

export type SystemPromptSections = Record<string, string>;

const PREAMBLE =
  "You are an expert coding assistant running inside a Pi-compatible coding agent. You help the user by reading files, running commands, editing code and writing new files.";

const BUILTIN_GUIDELINES: Record<string, readonly string[]> = {
  read: ["Look at files with read rather than with cat or sed."],
  edit: [
    "Use edit for targeted changes: every edits[].oldText must match the current file exactly and be unique in it.",
    "Put several changes to the same file into one edit call with several edits[] entries; they are all matched against the original file, so they must not overlap.",
    "Keep each edits[].oldText as short as it can be while staying unique; do not pad it with unchanged lines.",
  ],
  write: ["Use write only to create a file or to replace a file's whole content."],
};

/** A tool's rules as the prompt states them (codemode's `only` mode carries them in the tool's declaration). */
export function toolGuidelines(name: string, guidelines?: readonly string[]): readonly string[] {
  return guidelines ?? BUILTIN_GUIDELINES[name] ?? [];
}

/** The prompt's sections in order, non-preamble ones already wrapped in their tags. */
export function buildSystemPromptSections(input: SystemPromptInput): SystemPromptSections {
  const names = new Set(input.tools.map((t) => t.name));
  const raw: [string, string][] = [];
  if (input.customPrompt) raw.push(["preamble", input.customPrompt]);
  else {
    raw.push(["preamble", PREAMBLE]);
    raw.push(["tools", toolList(input.tools)]);
    raw.push(["rules", rules(input.tools, names)]);
  }
  const addendum = (input.appendPrompts ?? []).join("\n\n");
  if (addendum) raw.push(["addendum", addendum]);
  if (input.contextFiles.length > 0) raw.push(["project_context", formatContextFiles(input.contextFiles)]);
  const reader = names.has("read") ? "read" : names.has("bash") ? "bash" : undefined;
  const skills = reader ? formatSkillsForPrompt(input.skills, reader) : "";
  if (skills) raw.push(["skills", skills]);
  raw.push(["cwd", input.cwd.replace(/\\/g, "/")]);
  raw.push(["date", `Current date: ${formatDate(input.date ?? new Date())}`]);
  return Object.fromEntries(raw.map(([name, text]) => [name, name === "preamble" ? text : `<${name}>\n${text}\n</${name}>`]));
}

/** The whole prompt text: the sections joined by blank lines. */
export function buildSystemPrompt(input: SystemPromptInput): string {
  return renderSystemPrompt(buildSystemPromptSections(input));
}

export function renderSystemPrompt(sections: SystemPromptSections): string {
  return Object.values(sections).filter((s) => s.length > 0).join("\n\n");
}

function toolList(tools: readonly PromptTool[]): string {
  const lines = tools
    .map((t) => [t.name, t.snippet?.trim() || firstLine(t.description)] as const)
    .filter(([, summary]) => summary)
    .map(([name, summary]) => `- ${name}: ${summary}`);
  return `${lines.length > 0 ? lines.join("\n") : "(none)"}\n\nThe project may give you further tools besides these.`;
}

function firstLine(text: string): string {
  return text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
}

function rules(tools: readonly PromptTool[], names: ReadonlySet<string>): string {
  const out: string[] = [];
  const add = (rule: string): void => {
    const r = rule.trim();
    if (r && !out.includes(r)) out.push(r);
  };
  const shell = names.has("bash") ? "bash" : names.has("powershell") ? "PowerShell" : undefined;
  if (shell && !names.has("grep") && !names.has("find") && !names.has("ls")) {
    add(`Use ${shell} to list, search and find files (for example ls, rg, find).`);
  }
  for (const tool of tools) for (const rule of toolGuidelines(tool.name, tool.guidelines)) add(rule);
  add("Keep your answers short and to the point.");
  add("Name file paths clearly whenever you work with files.");
  return out.map((r) => `- ${r}`).join("\n");
}

/** Context files as pi wraps them. */
export function formatContextFiles(files: readonly ContextFile[]): string {
  const blocks = files.map((f) => `<project_instructions path="${f.path}">\n${f.content}\n</project_instructions>`);
  return ["Project-specific instructions and guidelines:", ...blocks].join("\n\n");
}

/**
 * The skills the model may load by itself (not `disable-model-invocation`), in the Agent Skills
 * `<available_skills>` format pi uses; "" when there are none.
 */
export function formatSkillsForPrompt(skills: readonly Skill[], reader: "read" | "bash"): string {
  const visible = skills.filter((s) => !s.disableModelInvocation);
  if (visible.length === 0) return "";
  const how = reader === "read" ? "the read tool" : "bash (for example cat)";
  return [
    "Skills hold detailed instructions for particular kinds of task.",
    `When a task matches a skill's description, load its file with ${how} before you start, then follow it.`,
    "Paths in a skill file are relative to the skill's folder (the folder of its file): turn them into absolute paths before using them in tool calls.",
    "",
    availableSkillsXml(visible),
  ].join("\n");
}

export function availableSkillsXml(skills: readonly Skill[]): string {
  const lines = ["<available_skills>"];
  for (const s of skills) {
    lines.push("  <skill>", `    <name>${xml(s.name)}</name>`, `    <description>${xml(s.description)}</description>`);
    lines.push(`    <location>${xml(s.filePath)}</location>`, "  </skill>");
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

function xml(text: string): string {
  const map: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
  return text.replace(/[&<>"']/g, (c) => map[c]!);
}

/** Local calendar day as YYYY-MM-DD. */
function formatDate(date: Date | string): string {
  if (typeof date === "string") return date;
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export interface PromptSourceOptions {
  cwd: string;
  agentDir: string;
  /** Project trust: `.pi/SYSTEM.md` and `.pi/APPEND_SYSTEM.md` are read only with it. */
  allowProject: boolean;
  /** `--system-prompt`: text, or a path (relative to cwd) of a file to read. */
  systemPrompt?: string;
  /** `--append-system-prompt` values (repeatable), each text or a file path. */
  appendSystemPrompt?: readonly string[];
}

export interface PromptSources {
  customPrompt?: string;
  /** The file customPrompt came from, if any. */
  customPromptPath?: string;
  appendPrompts: string[];
  appendPaths: string[];
  diagnostics: ResourceDiagnostic[];
}

/**
 * The custom prompt and additions, as pi picks them: `--system-prompt` if given, else the
 * trusted project's `.pi/SYSTEM.md`, else `<agentDir>/SYSTEM.md` (never both); likewise
 * `--append-system-prompt` values, else one APPEND_SYSTEM.md. A value naming an existing path is
 * read as a file (a read failure is reported and the value used as text); an empty value means
 * the default prompt.
 */
export function resolvePromptSources(options: PromptSourceOptions): PromptSources {
  const diagnostics: ResourceDiagnostic[] = [];
  const discover = (name: string): string | undefined => {
    const project = join(options.cwd, PROJECT_DIR_NAME, name);
    if (options.allowProject && existsSync(project)) return project;
    const global = join(options.agentDir, name);
    return existsSync(global) ? global : undefined;
  };
  const read = (value: string): { text?: string; path?: string } => {
    if (!value) return {};
    const path = resolve(options.cwd, value);
    if (!existsSync(path)) return { text: value };
    try {
      if (statSync(path).isDirectory()) throw new Error("is a directory");
      return { text: readText(path), path };
    } catch (error) {
      diagnostics.push({ type: "warning", message: `could not read prompt file, using the value as text: ${errorText(error)}`, path });
      return { text: value };
    }
  };
  const custom = read(options.systemPrompt ?? discover("SYSTEM.md") ?? "");
  const appendValues = options.appendSystemPrompt?.length ? options.appendSystemPrompt : [discover("APPEND_SYSTEM.md")].filter((v): v is string => !!v);
  const appended = appendValues.map(read).filter((a) => a.text !== undefined);
  return {
    ...(custom.text !== undefined ? { customPrompt: custom.text } : {}),
    ...(custom.path ? { customPromptPath: custom.path } : {}),
    appendPrompts: appended.map((a) => a.text!),
    appendPaths: appended.flatMap((a) => (a.path ? [a.path] : [])),
    diagnostics,
  };
}

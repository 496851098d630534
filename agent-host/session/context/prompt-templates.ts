/**
 * Prompt templates (docs/prompt-templates.md): Markdown files that become `/name` commands.
 * Found where pi 0.87.1 looks, first name wins (later ones are collisions):
 *   1. `<cwd>/.pi/prompts/*.md`, only when `allowProject`;
 *   2. `<agentDir>/prompts/*.md`;
 *   3. `--prompt-template <file|folder>` (also with `--no-prompt-templates`).
 * Folders load their direct `.md` children only (conventional folders skip dot files,
 * `node_modules` and ignore-file matches). The name is the file name without `.md`; the
 * description comes from the frontmatter, else the first non-empty line (60 characters, then
 * "..."). `argument-hint` is kept for completion.
 */
import { errorText } from "../../../shared/error-text";
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseFrontmatter } from "./frontmatter";
import { IgnoreRules } from "./ignore-rules";
import {
  canonicalPath, isUnder, listDir, PROJECT_DIR_NAME, readText, resolveUserPath, type ResourceDiagnostic, type SourceInfo,
} from "./resources";

export interface PromptTemplate {
  name: string;
  description: string;
  argumentHint?: string;
  /** The text after the frontmatter, into which arguments are substituted. */
  content: string;
  filePath: string;
  sourceInfo: SourceInfo;
}

export interface PromptTemplateLoadOptions {
  cwd: string;
  agentDir: string;
  /** Workspace/project trust: without it `<cwd>/.pi/prompts` is not read. */
  allowProject: boolean;
  /** false = `--no-prompt-templates` (only `extraPaths` load). Default true. */
  includeDefaults?: boolean;
  /** `--prompt-template` values, resolved against cwd. */
  extraPaths?: readonly string[];
  /** For `~` in extraPaths. */
  homeDir?: string;
}

export interface PromptTemplateLoadResult {
  templates: PromptTemplate[];
  diagnostics: ResourceDiagnostic[];
}

const DESCRIPTION_FROM_BODY_MAX = 60;

export function loadPromptTemplates(options: PromptTemplateLoadOptions): PromptTemplateLoadResult {
  const cwd = resolve(options.cwd);
  const agentDir = resolve(options.agentDir);
  const projectBase = join(cwd, PROJECT_DIR_NAME);
  const candidates: { file: string; sourceInfo: SourceInfo }[] = [];
  const diagnostics: ResourceDiagnostic[] = [];

  const add = (file: string, info: Omit<SourceInfo, "path">): void => void candidates.push({ file, sourceInfo: { path: file, ...info } });
  if (options.includeDefaults !== false) {
    if (options.allowProject) {
      for (const file of markdownChildren(join(projectBase, "prompts"), true)) add(file, { source: "auto", scope: "project", origin: "top-level", baseDir: projectBase });
    }
    for (const file of markdownChildren(join(agentDir, "prompts"), true)) add(file, { source: "auto", scope: "user", origin: "top-level", baseDir: agentDir });
  }
  const explicitInfo = (file: string): Omit<SourceInfo, "path"> => {
    for (const [root, scope] of [[join(agentDir, "prompts"), "user"], [join(projectBase, "prompts"), "project"]] as const) {
      if (isUnder(file, root)) return { source: "local", scope, origin: "top-level", baseDir: root };
    }
    return { source: "local", scope: "temporary", origin: "top-level", baseDir: dirname(file) };
  };
  for (const raw of options.extraPaths ?? []) {
    const path = resolveUserPath(raw, cwd, options.homeDir);
    if (!existsSync(path)) {
      diagnostics.push({ type: "error", message: "prompt template path does not exist", path });
      continue;
    }
    if (statSync(path).isDirectory()) for (const file of markdownChildren(path, false)) add(file, explicitInfo(file));
    else if (path.endsWith(".md")) add(path, explicitInfo(path));
    else diagnostics.push({ type: "warning", message: "prompt template path is not a markdown file", path });
  }

  const byName = new Map<string, PromptTemplate>();
  const seenFiles = new Set<string>();
  const collisions: ResourceDiagnostic[] = [];
  for (const { file, sourceInfo } of candidates) {
    const real = canonicalPath(file);
    if (seenFiles.has(real)) continue;
    seenFiles.add(real);
    const result = loadPromptTemplateFile(file, sourceInfo);
    diagnostics.push(...result.diagnostics);
    const template = result.template;
    if (!template) continue;
    const winner = byName.get(template.name);
    if (winner) {
      collisions.push({
        type: "collision",
        message: `prompt template "/${template.name}" is already taken by ${winner.filePath}`,
        path: file,
        collision: { resourceType: "prompt", name: template.name, winnerPath: winner.filePath, loserPath: file },
      });
    } else byName.set(template.name, template);
  }
  return { templates: [...byName.values()], diagnostics: [...diagnostics, ...collisions] };
}

/** Direct `.md` files of a folder, in name order. */
function markdownChildren(dir: string, conventional: boolean): string[] {
  const ignore = new IgnoreRules(dir);
  if (conventional) ignore.addFolder(dir);
  return listDir(dir)
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .filter((e) => !conventional || (!e.name.startsWith(".") && e.name !== "node_modules" && !ignore.ignores(e.path, false)))
    .map((e) => e.path);
}

/** One template file; unreadable files and bad YAML give a warning and no template. */
export function loadPromptTemplateFile(filePath: string, sourceInfo: SourceInfo): { template?: PromptTemplate; diagnostics: ResourceDiagnostic[] } {
  let data: Record<string, unknown>;
  let body: string;
  try {
    ({ data, body } = parseFrontmatter(readText(filePath)));
  } catch (error) {
    return { diagnostics: [{ type: "warning", message: `invalid prompt template: ${errorText(error)}`, path: filePath }] };
  }
  let description = typeof data.description === "string" ? data.description : "";
  if (!description) {
    const first = body.split("\n").find((line) => line.trim() !== "");
    if (first !== undefined) {
      description = first.length > DESCRIPTION_FROM_BODY_MAX ? `${first.slice(0, DESCRIPTION_FROM_BODY_MAX)}...` : first;
    }
  }
  const hint = data["argument-hint"];
  const template: PromptTemplate = {
    name: basename(filePath).replace(/\.md$/, ""),
    description,
    ...(typeof hint === "string" && hint ? { argumentHint: hint } : {}),
    content: body,
    filePath,
    sourceInfo,
  };
  return { template, diagnostics: [] };
}

/** Splits command arguments like a shell does for quotes: `a "b c" 'd'` → a, b c, d (no escapes; empty ones dropped). */
export function parseCommandArgs(text: string): string[] {
  const args: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (/\s/.test(ch)) {
      if (current) args.push(current);
      current = "";
    } else current += ch;
  }
  if (current) args.push(current);
  return args;
}

/**
 * Puts arguments into a template: `$1`…, `$@` / `$ARGUMENTS` (all, space-joined),
 * `${N:-default}`, `${@:-default}` / `${ARGUMENTS:-default}` (default when empty),
 * `${@:N}` (from the Nth on), `${@:N:L}` (L of them). One pass: substituted text is not
 * scanned again. Anything else (`${1}`, `$x`) stays as written.
 */
export function substituteArgs(content: string, args: readonly string[]): string {
  const all = args.join(" ");
  const positional = (n: string): string | undefined => args[Number(n) - 1];
  const pattern = /\$\{(@|ARGUMENTS|\d+):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$(@|ARGUMENTS|\d+)/g;
  return content.replace(pattern, (_m, defaultOf?: string, fallback?: string, from?: string, count?: string, plain?: string) => {
    if (defaultOf !== undefined) {
      const value = defaultOf === "@" || defaultOf === "ARGUMENTS" ? all : positional(defaultOf);
      return value ? value : (fallback ?? "");
    }
    if (from !== undefined) {
      const start = Math.max(0, Number(from) - 1);
      return (count === undefined ? args.slice(start) : args.slice(start, start + Number(count))).join(" ");
    }
    if (plain === "@" || plain === "ARGUMENTS") return all;
    return positional(plain ?? "") ?? "";
  });
}

/** `/name args` → the template filled with args; any other text (or unknown name) unchanged. */
export function expandPromptTemplate(text: string, templates: readonly PromptTemplate[]): string {
  if (!text.startsWith("/")) return text;
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  const template = match && templates.find((t) => t.name === match[1]);
  if (!match || !template) return text;
  return substituteArgs(template.content, parseCommandArgs(match[2] ?? ""));
}

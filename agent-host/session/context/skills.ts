/**
 * Skills (docs/skills.md, Agent Skills spec) found where pi 0.87.1 looks, in its precedence
 * order (the first skill of a name wins, later ones are reported as collisions):
 *   1. project, only when `allowProject`: `<cwd>/.pi/skills/`, then `.agents/skills/` in cwd and
 *      each ancestor up to the git repository root (or the filesystem root);
 *   2. user: `<agentDir>/skills/`, then `~/.agents/skills/`;
 *   3. `--skill <path>` (file or folder), also with `--no-skills` (`includeDefaults: false`).
 * In a folder, a `SKILL.md` makes it a skill root (nothing below is scanned); otherwise
 * subfolders are searched. Loose `.md` files count only directly in a `.pi`-style root (or,
 * for `.agents/skills`, only below its root) and only with a description. Dot entries,
 * `node_modules` and `.gitignore`/`.ignore`/`.fdignore` matches are skipped.
 */
import { errorText } from "../../../shared/error-text";
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseFrontmatter } from "./frontmatter";
import { IgnoreRules } from "./ignore-rules";
import {
  canonicalPath, isUnder, listDir, PROJECT_DIR_NAME, readText, resolveUserPath, type ResourceDiagnostic, type SourceInfo,
} from "./resources";

export interface Skill {
  name: string;
  description: string;
  /** The SKILL.md (or loose .md) file. */
  filePath: string;
  /** The folder holding filePath: relative references in the skill resolve against it. */
  baseDir: string;
  sourceInfo: SourceInfo;
  /** `disable-model-invocation: true`: not listed in the system prompt, only `/skill:name` loads it. */
  disableModelInvocation: boolean;
}

export interface SkillLoadOptions {
  cwd: string;
  agentDir: string;
  /** For `~/.agents/skills`. */
  homeDir: string;
  /** Workspace/project trust: without it nothing under the project (`.pi/`, `.agents/`) loads. */
  allowProject: boolean;
  /** false = `--no-skills` (only `extraPaths` load). Default true. */
  includeDefaults?: boolean;
  /** `--skill` values, resolved against cwd (`~` expanded). */
  extraPaths?: readonly string[];
}

export interface SkillLoadResult {
  skills: Skill[];
  diagnostics: ResourceDiagnostic[];
}

export const MAX_SKILL_NAME_LENGTH = 64;
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;

type Meta = Omit<SourceInfo, "path">;

export function loadSkills(options: SkillLoadOptions): SkillLoadResult {
  const cwd = resolve(options.cwd);
  const agentDir = resolve(options.agentDir);
  const userAgentsSkills = join(resolve(options.homeDir), ".agents", "skills");
  const candidates: { file: string; meta: Meta }[] = [];
  const diagnostics: ResourceDiagnostic[] = [];
  const add = (files: string[], meta: Meta): void => files.forEach((file) => candidates.push({ file, meta }));

  if (options.includeDefaults !== false) {
    if (options.allowProject) {
      const projectBase = join(cwd, PROJECT_DIR_NAME);
      add(collectSkillFiles(join(projectBase, "skills"), "pi"), auto("project", projectBase));
      for (const dir of ancestorAgentsSkillDirs(cwd)) {
        if (resolve(dir) !== userAgentsSkills) add(collectSkillFiles(dir, "agents"), auto("project", dirname(dir)));
      }
    }
    add(collectSkillFiles(join(agentDir, "skills"), "pi"), auto("user", agentDir));
    add(collectSkillFiles(userAgentsSkills, "agents"), auto("user", dirname(userAgentsSkills)));
  }

  for (const raw of options.extraPaths ?? []) {
    const path = resolveUserPath(raw, cwd, options.homeDir);
    if (!existsSync(path)) {
      diagnostics.push({ type: "warning", message: "skill path does not exist", path });
      continue;
    }
    const scope = isUnder(path, join(agentDir, "skills")) ? "user" : isUnder(path, join(cwd, PROJECT_DIR_NAME, "skills")) ? "project" : "temporary";
    const meta: Meta = { source: "local", scope, origin: "top-level" };
    if (statSync(path).isDirectory()) add(collectSkillFiles(path, "pi"), meta);
    else if (path.endsWith(".md")) add([path], meta);
    else diagnostics.push({ type: "warning", message: "skill path is not a markdown file", path });
  }

  const byName = new Map<string, Skill>();
  const loadedFiles = new Set<string>();
  const collisions: ResourceDiagnostic[] = [];
  for (const { file, meta } of candidates) {
    const real = canonicalPath(file);
    if (loadedFiles.has(real)) continue;
    const result = loadSkillFile(file, meta);
    diagnostics.push(...result.diagnostics);
    const skill = result.skill;
    if (!skill) continue;
    const winner = byName.get(skill.name);
    if (winner) {
      collisions.push({
        type: "collision",
        message: `skill name "${skill.name}" is already taken by ${winner.filePath}`,
        path: file,
        collision: { resourceType: "skill", name: skill.name, winnerPath: winner.filePath, loserPath: file },
      });
      continue;
    }
    byName.set(skill.name, skill);
    loadedFiles.add(real);
  }
  return { skills: [...byName.values()], diagnostics: [...diagnostics, ...collisions] };
}

function auto(scope: "user" | "project", baseDir: string): Meta {
  return { source: "auto", scope, origin: "top-level", baseDir };
}

/**
 * One skill file. A SKILL.md without a description, or with bad YAML, is refused with a
 * warning; a loose .md without a description is silently not a skill. Name problems (and an
 * over-long description) are warnings only: the skill still loads, as in pi. The name comes
 * from the frontmatter, else from the parent folder.
 */
export function loadSkillFile(filePath: string, meta: Meta): { skill?: Skill; diagnostics: ResourceDiagnostic[] } {
  const diagnostics: ResourceDiagnostic[] = [];
  const declared = basename(filePath) === "SKILL.md";
  const warn = (message: string): void => void diagnostics.push({ type: "warning", message, path: filePath });
  let data: Record<string, unknown>;
  try {
    data = parseFrontmatter(readText(filePath)).data;
  } catch (error) {
    if (declared) warn(`invalid frontmatter: ${errorText(error)}`);
    return { diagnostics };
  }
  const description = typeof data.description === "string" && data.description.trim() !== "" ? data.description : undefined;
  if (!declared && description === undefined) return { diagnostics };
  if (description === undefined) warn("description is missing or empty");
  else if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    warn(`description is longer than ${MAX_SKILL_DESCRIPTION_LENGTH} characters (${description.length})`);
  }
  const baseDir = dirname(filePath);
  const name = (typeof data.name === "string" && data.name) || basename(baseDir);
  for (const problem of skillNameProblems(name)) warn(problem);
  if (description === undefined) return { diagnostics };
  const sourceInfo: SourceInfo = { path: filePath, ...meta, ...(meta.source === "local" ? { baseDir } : {}) };
  const skill: Skill = { name, description, filePath, baseDir, sourceInfo, disableModelInvocation: data["disable-model-invocation"] === true };
  return { skill, diagnostics };
}

/** What is wrong with a skill name under the Agent Skills rules (empty when valid). */
export function skillNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length > MAX_SKILL_NAME_LENGTH) problems.push(`name "${name}" is longer than ${MAX_SKILL_NAME_LENGTH} characters (${name.length})`);
  if (!/^[a-z0-9-]+$/.test(name)) problems.push(`name "${name}" may only contain lowercase letters a-z, digits 0-9 and hyphens`);
  if (name.startsWith("-") || name.endsWith("-")) problems.push(`name "${name}" must not start or end with a hyphen`);
  if (name.includes("--")) problems.push(`name "${name}" must not contain two hyphens in a row`);
  return problems;
}

/**
 * Skill files under `root`. "pi" roots (`.pi/skills`, agent dir, `--skill`) also take loose .md
 * files directly in the root; "agents" roots (`.agents/skills`) take them only below the root.
 */
export function collectSkillFiles(root: string, mode: "pi" | "agents"): string[] {
  const ignore = new IgnoreRules(root);
  const walk = (dir: string): string[] => {
    ignore.addFolder(dir);
    const entries = listDir(dir);
    const skillMd = entries.find((e) => e.name === "SKILL.md" && e.isFile);
    if (skillMd && !ignore.ignores(skillMd.path, false)) return [skillMd.path];
    const files: string[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      if (ignore.ignores(entry.path, entry.isDirectory)) continue;
      if (entry.isDirectory) files.push(...walk(entry.path));
      else if (entry.isFile && entry.name.endsWith(".md") && (mode === "pi") === (dir === root)) files.push(entry.path);
    }
    return files;
  };
  return walk(root);
}

/** `.agents/skills` in cwd and each ancestor, nearest first, up to the git root (or `/`). */
function ancestorAgentsSkillDirs(cwd: string): string[] {
  let gitRoot: string | undefined;
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) {
      gitRoot = dir;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.push(join(dir, ".agents", "skills"));
    if (dir === gitRoot || dirname(dir) === dir) return dirs;
  }
}

/**
 * `/skill:name args` → the message pi sends to the model:
 * `<skill name="N" location="FILE">\nReferences are relative to DIR.\n\nBODY\n</skill>` plus
 * `\n\nARGS` when there are arguments. The name ends at the first space; BODY is the file
 * without frontmatter, trimmed, read now. Other text, or an unknown skill, comes back unchanged;
 * an unreadable file too, with `error` set (pi reports it as an extension error).
 */
export function expandSkillCommand(text: string, skills: readonly Skill[]): { text: string; error?: { path: string; message: string } } {
  if (!text.startsWith("/skill:")) return { text };
  const space = text.indexOf(" ");
  const name = space === -1 ? text.slice(7) : text.slice(7, space);
  const args = space === -1 ? "" : text.slice(space + 1).trim();
  const skill = skills.find((s) => s.name === name);
  if (!skill) return { text };
  let body: string;
  try {
    body = parseFrontmatter(readText(skill.filePath)).body.trim();
  } catch (error) {
    return { text, error: { path: skill.filePath, message: errorText(error) } };
  }
  const block = `<skill name="${skill.name}" location="${skill.filePath}">\nReferences are relative to ${skill.baseDir}.\n\n${body}\n</skill>`;
  return { text: args ? `${block}\n\n${args}` : block };
}

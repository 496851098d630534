/**
 * Files that tools, the editor or the user's next command execute or obey without anyone reading
 * them again: a write to one is a step to running code (`core.fsmonitor` in `.git/config` runs at
 * the next `git status`, which VS Code's git extension runs by itself; a folder-open task in
 * `.vscode/tasks.json`; a Pi extension in `.pi/extensions/`; a `package.json` script; a git hook).
 * In every permission mode but `auto`, a write or edit of one is asked, with the change shown.
 *
 * Decided on the path the tool would really open (`resolveToCwd`, then every symlink resolved,
 * a dangling one followed to the file it would create) and without regard to letter case (macOS
 * and Windows file systems usually ignore it, so `.GIT/config` is `.git/config` there).
 */
import { realPathOf } from "../../../shared/node/real-path";
import { resolveToCwd } from "../../tools/paths";

/** Folders whose every file is protected, wherever they are (a nested repository's `.git/` too). */
const protectedFolders: ReadonlySet<string> = new Set([
  ".git", // config (core.fsmonitor, core.hooksPath, aliases, filters), hooks/
  ".pi", // settings, extensions, SYSTEM.md, prompts, skills
  ".vscode", // tasks.json (runOn folderOpen), launch.json, settings.json (git.path, terminal profiles…)
  ".husky", ".githooks", // git hooks kept in the tree
  ".github", ".circleci", ".gitlab", ".buildkite", // CI workflows and actions
  ".devcontainer", // run when the folder is reopened in a container
  ".idea", // JetBrains run configurations
  ".claude", ".cursor", // other agents' hooks and settings in the same tree
  ".yarn", // yarn plugins and releases, run by every yarn command
]);

/** Files protected by name, wherever they are. */
const protectedNames: ReadonlySet<string> = new Set([
  "package.json", "package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "bun.lockb", "bun.lock",
  ".npmrc", ".yarnrc", ".yarnrc.yml", "pnpm-workspace.yaml", ".pnpmfile.cjs", ".pnpmfile.mjs", "bunfig.toml",
  ".gitlab-ci.yml", ".travis.yml", "azure-pipelines.yml", "jenkinsfile", "bitbucket-pipelines.yml",
  ".pre-commit-config.yaml", ".envrc", ".gitmodules", ".gitattributes",
  "makefile", "gnumakefile", "justfile", "taskfile.yml",
  ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile",
]);

/** File name endings protected wherever they are. */
const protectedEndings = [".code-workspace"];

/** The tools whose call writes the file at `path` (editor_edit changes the editor's buffer, which a save or auto-save writes). */
export const writingTools: ReadonlySet<string> = new Set(["write", "edit", "editor_edit"]);

/** True when the real path of `absPath` is a protected file, or lies in a protected folder. */
export function isProtectedPath(absPath: string): boolean {
  const real = realPathOrLoop(absPath);
  if (real === undefined) return true; // a link loop: nothing to judge by, so asked
  // Windows opens `.git.`, `.git ` and `config::$DATA` as `.git` and `config`: compared without those tails.
  const parts = real.toLowerCase().split(/[\\/]+/).map((part) => part.replace(/:.*$/, "").replace(/[. ]+$/, (tail) => (tail === part ? tail : ""))).filter(Boolean);
  const name = parts.at(-1) ?? "";
  return parts.slice(0, -1).some((part) => protectedFolders.has(part)) || protectedFolders.has(name) || protectedNames.has(name) || protectedEndings.some((end) => name.endsWith(end));
}

function realPathOrLoop(absPath: string): string | undefined {
  try {
    return realPathOf(absPath);
  } catch {
    return undefined;
  }
}

/** A protected file a call would write: the path as the tool resolves it, and where it really leads (symlinks followed). */
export interface ProtectedTarget {
  absPath: string;
  realPath: string;
}

/** The protected file a write/edit call would open; undefined when it is not protected. */
export function protectedTarget(tool: string, args: Record<string, unknown>, cwd: string): ProtectedTarget | undefined {
  if (!writingTools.has(tool) || typeof args.path !== "string" || args.path === "") return undefined;
  const absPath = resolveToCwd(args.path, cwd);
  return isProtectedPath(absPath) ? { absPath, realPath: realPathOrLoop(absPath) ?? absPath } : undefined;
}

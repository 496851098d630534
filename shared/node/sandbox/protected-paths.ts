/**
 * The tables of the sandbox: what stays read-only inside a writable root, and which secrets of
 * the user's home are hidden. Entries of the first table are single names directly under a root:
 * a deeper entry (`.github/workflows`) could be escaped by renaming its parent (a mount moves with
 * its directory), a top-level one cannot (it is a mount point under the root's own mount point).
 */

/** A name protected wherever it is: a folder (and all under it), a file, or a file name's ending. */
export interface ProtectedName {
  name: string;
  kind: "dir" | "file" | "ending";
  why: string;
}

/** Things under a writable root that a tool, the editor, git or CI later executes or loads: the sandbox keeps them read-only. */
export const protectedWorkspaceNames: readonly (ProtectedName & { kind: "dir" | "file" })[] = [
  { name: ".git", kind: "dir", why: "git hooks and config (core.fsmonitor, core.pager, aliases): run by git and by the editor's git" },
  { name: ".pi", kind: "dir", why: "Pi's project extensions, settings, SYSTEM.md: loaded by the agent" },
  { name: ".vscode", kind: "dir", why: "tasks.json (runOn folderOpen), launch.json, settings.json: run or read by the editor" },
  { name: ".github", kind: "dir", why: "workflows: run in CI with the repository's secrets" },
  { name: ".gitlab-ci.yml", kind: "file", why: "CI pipeline" },
  { name: ".husky", kind: "dir", why: "git hooks" },
  { name: ".githooks", kind: "dir", why: "git hooks (core.hooksPath)" },
  { name: ".pre-commit-config.yaml", kind: "file", why: "run at git commit" },
  { name: ".gitmodules", kind: "file", why: "submodule URLs and update commands" },
  { name: ".envrc", kind: "file", why: "direnv: run by the user's shell" },
  { name: ".npmrc", kind: "file", why: "npm: script-shell, node-options, registry tokens" },
  { name: ".yarnrc", kind: "file", why: "yarn configuration" },
  { name: ".yarnrc.yml", kind: "file", why: "yarn berry: yarnPath runs a script" },
  { name: ".pnpmfile.cjs", kind: "file", why: "pnpm hooks: run at install" },
  { name: ".devcontainer", kind: "dir", why: "dev container: postCreateCommand" },
  { name: ".idea", kind: "dir", why: "JetBrains run configurations" },
  { name: ".mise.toml", kind: "file", why: "mise: tasks and env run on cd" },
  { name: ".tool-versions", kind: "file", why: "asdf/mise: which binaries run" },
  { name: ".claude", kind: "dir", why: "another agent's settings and hooks" },
  { name: ".codex", kind: "dir", why: "another agent's settings" },
  { name: ".gemini", kind: "dir", why: "another agent's settings and commands" },
  { name: ".opencode", kind: "dir", why: "another agent's settings and plugins" },
  { name: ".agents", kind: "dir", why: "agents' skills and settings: loaded by agents" },
  { name: ".gitea", kind: "dir", why: "workflows: run in CI" },
  { name: ".forgejo", kind: "dir", why: "workflows: run in CI" },
  { name: ".hg", kind: "dir", why: "Mercurial's hgrc: hooks run by hg" },
  { name: ".gitconfig", kind: "file", why: "git config a repository's .git/config may include (include.path)" },
  { name: ".devcontainer.json", kind: "file", why: "dev container: postCreateCommand" },
  { name: "mise.toml", kind: "file", why: "mise: tasks and env run on cd" },
  { name: "lefthook.yml", kind: "file", why: "git hooks run at commit (lefthook)" },
];

/**
 * Also protected from the file tools (the bundled host's write and edit, the editor's
 * editor_edit): a write of one is asked, with the change shown. Not kept read-only by the
 * sandbox: commands write them as part of ordinary work (`npm install` and package.json).
 */
const fileToolOnlyNames: readonly ProtectedName[] = [
  ...["package.json", "package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "bun.lockb", "bun.lock", "pnpm-workspace.yaml", ".pnpmfile.mjs", "bunfig.toml"].map(
    (name) => ({ name, kind: "file" as const, why: "package manager: scripts and hooks run at install, build and test" }),
  ),
  ...[".travis.yml", "azure-pipelines.yml", "Jenkinsfile", "bitbucket-pipelines.yml"].map((name) => ({ name, kind: "file" as const, why: "CI pipeline" })),
  ...[".circleci", ".gitlab", ".buildkite"].map((name) => ({ name, kind: "dir" as const, why: "CI pipeline" })),
  { name: ".gitattributes", kind: "file", why: "git filters and diff drivers (run by git)" },
  ...["Makefile", "GNUmakefile", "justfile", "Taskfile.yml"].map((name) => ({ name, kind: "file" as const, why: "build recipes: run by make, just, task" })),
  ...[".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile"].map((name) => ({ name, kind: "file" as const, why: "run by a shell" })),
  { name: ".cursor", kind: "dir", why: "another agent's settings and hooks" },
  { name: ".yarn", kind: "dir", why: "yarn plugins and releases: run by every yarn command" },
  { name: ".code-workspace", kind: "ending", why: "a workspace file: its settings and tasks" },
];

/** What the file tools treat as protected: the sandbox's read-only names and the others above. */
export const fileToolProtectedNames: readonly ProtectedName[] = [...protectedWorkspaceNames, ...fileToolOnlyNames];

/** Secrets in the user's home, hidden from every sandboxed process (relative to $HOME). */
export const homeSecrets: readonly string[] = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".config/gcloud",
  ".azure",
  ".kube",
  ".docker/config.json",
  ".netrc",
  ".git-credentials",
  ".config/gh",
  ".config/hub",
  ".pi/agent/auth.json",
  // API keys (or the command that prints one) and the MCP servers' OAuth tokens.
  ".pi/agent/models.json",
  ".pi/agent/mcp-auth.json",
  ".codex/auth.json",
  ".claude/.credentials.json",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".password-store",
  ".local/share/keyrings",
  ".config/op",
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  ".config/Code/User/globalStorage",
  ".vscode-server/data/User/globalStorage",
  // Other stores of passwords and tokens: git's XDG credential store, PostgreSQL's and MySQL's
  // client passwords, podman's registry logins, s3cmd's and boto's keys, rclone's remotes, the
  // DigitalOcean, Oracle Cloud and GitLab command lines.
  ".config/git/credentials",
  ".pgpass",
  ".my.cnf",
  ".config/containers/auth.json",
  ".s3cfg",
  ".boto",
  ".config/rclone",
  ".config/doctl",
  ".oci",
  ".config/glab-cli",
  // Container engines' API sockets (a path socket is reachable whatever the network namespace, and
  // the API runs a container with the host's / mounted) and their keys: Docker Desktop's socket
  // folder and its contexts' TLS keys, Rancher Desktop's, colima's and lima's (VM sockets, ssh keys).
  ".docker/desktop",
  ".docker/contexts",
  ".rd",
  ".colima",
  ".lima",
];

/** The home secrets that are files (the others are folders): a missing one is stubbed as its kind. */
const homeSecretFiles = new Set([
  ".docker/config.json", ".netrc", ".git-credentials", ".config/hub", ".pi/agent/auth.json", ".pi/agent/models.json",
  ".pi/agent/mcp-auth.json", ".codex/auth.json", ".claude/.credentials.json", ".npmrc", ".yarnrc.yml", ".pypirc",
  ".gem/credentials", ".cargo/credentials", ".cargo/credentials.toml", ".terraform.d/credentials.tfrc.json", ".vault-token",
  ".config/git/credentials", ".pgpass", ".my.cnf", ".config/containers/auth.json", ".s3cfg", ".boto",
]);

export function homeSecretKind(name: string): "dir" | "file" {
  return homeSecretFiles.has(name) ? "file" : "dir";
}

/**
 * Files in $HOME a login, a new terminal or the user's tools run: kept read-only when home lies
 * inside a writable root. Besides the shell's and git's: the editor's user settings (`git.path`,
 * terminal profiles) and extension folders, Python's user site-packages (a `.pth` line runs in
 * every python), cargo's config (`build.rustc-wrapper`).
 */
export const homeStartupFiles: readonly { name: string; kind: "dir" | "file" }[] = [
  ...[".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zshenv", ".gitconfig"].map((name) => ({ name, kind: "file" as const })),
  ...[".config/Code/User/settings.json", ".local/share/code-server/User/settings.json", ".cargo/config.toml"].map((name) => ({ name, kind: "file" as const })),
  ...[".ssh", ".config/fish", ".config/autostart", ".config/systemd", ".config/git", ".local/bin", ".pi"].map((name) => ({ name, kind: "dir" as const })),
  ...[".vscode-server/extensions", ".local/share/code-server/extensions", ".local/lib"].map((name) => ({ name, kind: "dir" as const })),
];

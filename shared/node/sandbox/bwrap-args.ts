/**
 * The bubblewrap command line for a policy (Linux). Pure: the file system is seen through
 * `pathKind`, so the unit tests need no bwrap. The view it builds, in mount order (later wins):
 *
 *  1. the whole file system read-only; a fresh /dev; new user (all capabilities dropped, no nested
 *     user namespaces), PID (a fresh /proc: no host process, no /proc/<pid>/environ), IPC, UTS and
 *     cgroup namespaces; a network namespace of its own (loopback only) unless network is allowed;
 *  2. /tmp is the session's own temp dir (the host's /tmp holds other programs' sockets: an
 *     ssh-agent, X11); the user's runtime dir and the container sockets are hidden too; with
 *     allowed hosts, the network proxy's folder read-only at /tmp/.pi-net (net/bridge.ts);
 *  3. writable roots bound read-write (workspace-write);
 *  4. inside each, the protected names read-only; a missing one is mounted read-only empty, so it
 *     cannot be created either (bwrap makes the mount point, a "stub", on the host: see stubs.ts);
 *     the ones found deeper (protected-scan.ts: a nested repository's `.git`) read-only too (one
 *     made deeper cannot be kept from appearing: quarantine.ts moves it aside afterwards);
 *  5. the home secrets hidden (an empty read-only directory, or /dev/null for a file).
 */
import { basename, dirname, join, normalize, relative, sep } from "node:path";
import { bridgeMount } from "./net/bridge";
import type { SandboxPolicy } from "./policy";
import { homeSecretKind, homeSecrets, homeStartupFiles, protectedWorkspaceNames } from "./protected-paths";
import type { SecretPlace } from "./secret-places";
import type { ProtectedEntry } from "./protected-scan";

export type PathKind = "dir" | "file" | "missing";

export interface BwrapInputs {
  policy: SandboxPolicy;
  /** The directory the command starts in. */
  cwd: string;
  /** The user's home (real path), if any. */
  home?: string;
  /** The session's temp dir on the host (0700, made by the caller), seen as /tmp inside. */
  sessionTemp: string;
  /** The user's runtime dir (XDG_RUNTIME_DIR, /run/user/<uid>): sockets of the session bus, the editor's IPC. */
  runtimeDir?: string;
  /** More paths to hide: the sockets the environment names (SSH_AUTH_SOCK, the session bus, the editor's IPC). */
  hiddenPaths?: readonly string[];
  /** Where the home's secrets are or were (secret-places.ts); without it, where their names are now. */
  secrets?: readonly SecretPlace[];
  /** The network proxy's private folder (policy with allowed hosts), mounted read-only at net/bridge.ts `bridgeMount`. */
  proxyDir?: string;
  /** Variables set inside (after the environment the sandbox was started with). */
  setenv?: Readonly<Record<string, string>>;
  /** What is at a path, symlinks followed. */
  pathKind(path: string): PathKind;
  /** The real path of an existing path (bwrap mounts onto real paths, not through symlinks). */
  realPath(path: string): string;
  /** For a `.git` file (a worktree, a submodule): the git dir it points to, resolved. */
  gitDirOf?(dotGitFile: string): string | undefined;
  /** The protected names found below the roots (protected-scan.ts); those directly under a root are handled as above. */
  nested?: readonly ProtectedEntry[];
  /** Everything inside is killed once the command (bwrap's direct child) has ended: a whole agent's sandbox (index.ts `wholeAgent`). */
  dieWithParent?: boolean;
}

export interface BwrapPlan {
  args: string[];
  /** Paths bwrap will create on the host as mount points (missing protected paths). */
  stubs: string[];
}

/** Host sockets that lead out of any sandbox (a root daemon, the session bus). */
const hiddenSockets = ["/run/docker.sock", "/var/run/docker.sock", "/run/podman", "/run/containerd", "/run/dbus", "/var/run/dbus"];

export const isInside = (path: string, root: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** The namespaces and the base view, the same for every policy (also what the probe runs). */
export function bwrapBaseArgs(network: boolean): string[] {
  return [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
    "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
    ...(network ? [] : ["--unshare-net"]),
    "--proc", "/proc",
  ];
}

export function buildBwrapArgs(input: BwrapInputs, command: readonly string[]): BwrapPlan {
  const { policy, pathKind } = input;
  if (policy.mode === "full-access") throw new Error("full-access runs without bwrap");
  const args = bwrapBaseArgs(policy.network);
  if (input.dieWithParent) args.push("--die-with-parent");
  const stubs: string[] = [];

  // 2. A private /tmp and no host sockets.
  args.push("--bind", input.sessionTemp, "/tmp", "--setenv", "TMPDIR", "/tmp");
  // The proxy's socket, the only way out of a sandbox whose network namespace is its own (read-only: it cannot be replaced).
  if (input.proxyDir) {
    if (policy.network) throw new Error("a proxy is for a sandbox without a network of its own");
    args.push("--ro-bind", input.proxyDir, bridgeMount);
  }
  for (const [name, value] of Object.entries(input.setenv ?? {})) args.push("--setenv", name, value);
  const hidden = [input.runtimeDir, ...hiddenSockets, ...(input.hiddenPaths ?? [])].flatMap((p) => (p && pathKind(p) !== "missing" ? [input.realPath(p)] : []));
  const hide = (path: string) => {
    const kind = pathKind(path);
    if (kind === "dir") args.push("--tmpfs", path, "--remount-ro", path);
    else if (kind === "file") args.push("--ro-bind", "/dev/null", path);
  };
  for (const path of new Set(hidden)) hide(path);
  // What /tmp (or the runtime dir) hid that must stay visible: home, and in read-only mode the workspace.
  const reshow = [input.home, ...(policy.readableRoots ?? []), ...(policy.mode === "read-only" ? [policy.workspaceRoot] : [])];
  for (const path of reshow) {
    if (path && isHidden(path, input) && pathKind(path) === "dir") args.push("--ro-bind", path, path);
  }

  // 3. Writable roots, then 4. what stays read-only inside them.
  const roots = policy.mode === "workspace-write" ? unique([policy.workspaceRoot, ...policy.writableRoots]).filter((r) => pathKind(r) === "dir") : [];
  for (const root of roots) args.push("--bind", root, root);
  const insideRoots = (path: string) => roots.some((root) => isInside(path, root));
  // Home inside a root: the folders on the way to its start-up entries are pinned before anything
  // is mounted inside the roots (a folder bound later would cover a nested `.git` mounted read-only in it).
  const home = input.home;
  const pinned = new Set<string>();
  const startup = home && insideRoots(home) ? pinStartupFolders(home, roots, input, args, pinned) : [];
  const secrets = (input.secrets ?? (home ? homeSecrets.map((name) => ({ name, path: join(home, name) })) : [])).filter((place) => !policy.visibleSecrets?.includes(place.name));
  pinSecretFolders(secrets, roots, input, args, pinned);
  // Home inside a root: a secret the user has not got yet (no ~/.aws) is made an empty read-only
  // stub, as a missing start-up file, or a command plants one (a credential_process aws runs).
  const missingSecrets = home && insideRoots(home) ? missingSecretStubs(home, policy, roots, input, args, pinned) : [];
  const keepReadOnly = (path: string, kind: "dir" | "file") => {
    const found = pathKind(path);
    if (found !== "missing") {
      const real = input.realPath(path);
      args.push("--ro-bind", real, real);
    }
    else {
      // Mounted empty and read-only: `mkdir .git`, `>.vscode/tasks.json` fail as they would on the real thing.
      args.push(...(kind === "dir" ? ["--tmpfs", path, "--remount-ro", path] : ["--ro-bind", "/dev/null", path]));
      stubs.push(path);
    }
  };
  const gitDirReadOnly = (dotGit: string) => {
    if (!dotGit.endsWith(`${sep}.git`) || pathKind(dotGit) !== "file") return;
    const gitDir = input.gitDirOf?.(dotGit);
    if (gitDir && insideRoots(gitDir) && pathKind(gitDir) === "dir") args.push("--ro-bind", gitDir, gitDir);
  };
  for (const root of roots) {
    for (const entry of protectedWorkspaceNames) {
      const path = join(root, entry.name);
      keepReadOnly(path, entry.kind);
      gitDirReadOnly(path);
    }
  }
  // Deeper: what exists (a symlink's target, when it lies in a root; the link itself is checked after the command).
  for (const entry of input.nested ?? []) {
    if (roots.includes(dirname(entry.path)) || pathKind(entry.path) === "missing") continue;
    const real = input.realPath(entry.path);
    if (entry.kind !== "symlink" || insideRoots(real)) args.push("--ro-bind", real, real);
    gitDirReadOnly(entry.path);
  }
  for (const path of policy.readOnlyPaths ?? []) {
    if (insideRoots(path) && pathKind(path) !== "missing") args.push("--ro-bind", input.realPath(path), input.realPath(path));
  }
  for (const path of policy.uncreatableDirs ?? []) if (insideRoots(path)) keepReadOnly(path, "dir");
  for (const { path, kind, stopped } of [...startup, ...missingSecrets]) {
    if (stopped === undefined) {
      if (!stubs.includes(path)) keepReadOnly(path, kind);
    } else if (!stubs.includes(stopped) && pathKind(stopped) === "missing") {
      // Missing: it and all below it (every start-up entry there) are one stub, empty and read-only.
      args.push("--tmpfs", stopped, "--remount-ro", stopped);
      stubs.push(stopped);
    }
  }

  // A hidden path inside a writable root (the stub ledgers where $TMPDIR is in the workspace, a
  // socket there) was shown again by the root's bind: hidden once more.
  for (const path of new Set(hidden)) if (insideRoots(path)) hide(path);

  // 5. Secrets hidden (after everything else: a later mount would show them again), each place
  // they are or were at (a renamed link's target stays hidden).
  if (secrets.length > 0) {
    const hiddenDirs: string[] = [];
    const done = new Set<string>();
    for (const place of secrets) {
      const kind = pathKind(place.path);
      if (kind === "missing") continue;
      const path = input.realPath(place.path);
      if (done.has(path)) continue;
      done.add(path);
      if (kind === "dir") {
        args.push("--tmpfs", path);
        hiddenDirs.push(path);
      } else if (kind === "file") args.push("--ro-bind", "/dev/null", path);
    }
    // A writable root inside a hidden folder (the editor's storage under ~/.config/Code/User/globalStorage)
    // is shown again, bound while the empty tmpfs hiding it is still writable (bwrap makes the bind's
    // mount point there: in a read-only one it could not, and the sandbox did not start); then each
    // tmpfs is made read-only (not recursively: the root bound inside stays writable).
    for (const root of roots) if (hiddenDirs.some((dir) => isInside(root, dir))) args.push("--bind", root, root);
    for (const dir of hiddenDirs) args.push("--remount-ro", dir);
  }

  args.push("--chdir", input.cwd, "--", ...command);
  return { args, stubs };
}

/** Each home start-up entry with the folders on its way pinned (pinFoldersBetween), and where pinning stopped. */
function pinStartupFolders(home: string, roots: readonly string[], input: BwrapInputs, args: string[], pinned: Set<string>): { path: string; kind: "dir" | "file"; stopped: string | undefined }[] {
  return homeStartupFiles.map((entry) => {
    const path = join(home, entry.name);
    return { path, kind: entry.kind, stopped: pinFoldersTo(path, roots, input, args, pinned) };
  });
}

/**
 * The folders on the way to each place a home secret is or was at, pinned: a hidden file's mount
 * moves with its folder, so `mv ~/.docker d && cat d/config.json` showed it (and the next command
 * hid nothing at `~/.docker/config.json`). The secret itself is a mount point already.
 */
function pinSecretFolders(secrets: readonly SecretPlace[], roots: readonly string[], input: BwrapInputs, args: string[], pinned: Set<string>): void {
  for (const place of secrets) if (input.pathKind(place.path) !== "missing") pinFoldersTo(place.path, roots, input, args, pinned);
}

/** The home secrets missing now (none of visibleSecrets), with the folders on their way pinned and where pinning stopped. */
function missingSecretStubs(home: string, policy: SandboxPolicy, roots: readonly string[], input: BwrapInputs, args: string[], pinned: Set<string>): { path: string; kind: "dir" | "file"; stopped: string | undefined }[] {
  return homeSecrets
    .filter((name) => !policy.visibleSecrets?.includes(name) && input.pathKind(join(home, name)) === "missing")
    .map((name) => {
      const path = join(home, name);
      return { path, kind: homeSecretKind(name), stopped: pinFoldersTo(path, roots, input, args, pinned) };
    });
}

/**
 * pinFoldersBetween from the writable root holding `path`; through a symlinked folder
 * (`~/.config -> dotfiles/config`) the mount lands where it leads: those folders are pinned too.
 * Nothing outside the writable roots is pinned (it is read-only there, and a bind of it would make
 * it writable). Returns where pinning stopped on the way as written, if it did.
 */
function pinFoldersTo(path: string, roots: readonly string[], input: BwrapInputs, args: string[], pinned: Set<string>): string | undefined {
  const parent = dirname(path);
  const real = input.pathKind(parent) === "dir" ? join(input.realPath(parent), basename(path)) : path;
  const realRoot = roots.find((r) => isInside(real, r));
  if (real !== path && realRoot) pinFoldersBetween(realRoot, real, pinned, input, args);
  const root = roots.find((r) => isInside(path, r));
  return root === undefined ? undefined : pinFoldersBetween(root, path, pinned, input, args);
}

/**
 * A mount moves with the folder holding it: `mv ~/.config x && mkdir -p ~/.config/git` would leave
 * the read-only `~/.config/git` behind, renamed, and make a writable one. So every folder between
 * the writable root and `path` is bound onto itself (still writable, but a mount point cannot be
 * renamed or removed: EBUSY). Returns the first one missing (or not a folder), where pinning stops:
 * a missing one is to be a stub itself; with a file there, `path` cannot exist, and the file is
 * kept read-only. A folder reached through a symlink cannot be pinned (the link stays
 * replaceable: the sweep puts it back, index.ts `startupLinks`): pinning stops there, and the
 * caller pins the folders the link leads to.
 */
function pinFoldersBetween(root: string, path: string, pinned: Set<string>, input: BwrapInputs, args: string[]): string | undefined {
  const parts = relative(root, dirname(path)).split(sep).filter(Boolean);
  let folder = root;
  for (const part of parts) {
    folder = join(folder, part);
    if (pinned.has(folder)) continue;
    const kind = input.pathKind(folder);
    if (kind === "missing") return folder;
    if (input.realPath(folder) !== folder) return undefined;
    if (kind === "file") {
      args.push("--ro-bind", folder, folder);
      pinned.add(folder);
      return folder;
    }
    args.push("--bind", folder, folder);
    pinned.add(folder);
  }
  return undefined;
}

/** Under /tmp or the runtime dir, which the sandbox replaces. */
function isHidden(path: string, input: Pick<BwrapInputs, "runtimeDir">): boolean {
  return isInside(path, "/tmp") || (input.runtimeDir !== undefined && isInside(path, input.runtimeDir));
}

/**
 * Whether a host path is out of sight inside: where the sandbox puts its own view, and in none of
 * the folders it shows again (home, readable roots) or binds (the workspace, writable roots).
 */
export function isOutOfSight(written: string, input: Pick<BwrapInputs, "policy" | "home" | "runtimeDir">): boolean {
  // `/tmp/../home/…` only passes through /tmp.
  const path = normalize(written);
  if (!isHidden(path, input)) return false;
  const { policy } = input;
  const shown = [input.home, ...(policy.readableRoots ?? []), policy.workspaceRoot, ...(policy.mode === "workspace-write" ? policy.writableRoots : [])];
  return !shown.some((root) => root !== undefined && isInside(path, root));
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)].filter((p, i, all) => !all.some((other, j) => j !== i && other !== p && isInside(p, other) && relative(other, p) !== ""));
}

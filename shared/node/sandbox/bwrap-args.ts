/**
 * The bubblewrap command line for a policy (Linux). Pure: the file system is seen through
 * `pathKind`, so the unit tests need no bwrap. The view it builds (mount-order.ts puts the mounts in
 * bwrap's order: shallower first, at one depth as listed here, the later winning):
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
 *  5. the home secrets hidden (an empty read-only directory, or /dev/null for a file), and the
 *     folders holding them rebuilt without them (home-view.ts).
 */
import { dirname, join, normalize, relative, sep } from "node:path";
import { isInside } from "../real-path";
import { bridgeMount } from "./net/bridge";
import type { SandboxPolicy } from "./policy";
import { homeSecrets, protectedWorkspaceNames } from "./protected-paths";
import type { SecretPlace } from "./secret-places";
import type { ProtectedEntry } from "./protected-scan";
import { landsInRebuilt, noHomeView, rebuildHomes, type HomeView, type ListedFolder } from "./home-view";
import { mountList } from "./mount-order";
import { missingSecretStubs, pinSecretFolders, pinStartupFolders } from "./pins";

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
  /** The homes whose secrets those are (real paths; default: `home`). */
  homes?: readonly string[];
  /** A folder's entries and mode (home-view.ts); without it, no folder is rebuilt (the mounts alone hide). */
  listFolder?(dir: string): ListedFolder | undefined;
  /**
   * The key of the rebuilt folders a home keeper holds (home-keeper.ts), the command's bwrap to be
   * started in its namespaces: if the folders listed now have that key, they are not rebuilt again.
   */
  keptHomeView?: string;
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
  /** The folders rebuilt (home-view.ts). */
  homeView: HomeView;
  /** Whether the args take them from a home keeper holding `keptHomeView` (started in its namespaces). */
  inKeeper: boolean;
}

/** Host sockets that lead out of any sandbox (a root daemon, the session bus). */
const hiddenSockets = ["/run/docker.sock", "/var/run/docker.sock", "/run/podman", "/run/containerd", "/run/dbus", "/var/run/dbus"];


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
  // The mounts below, put in bwrap's order at the end (mount-order.ts: shallower first).
  const m = mountList();

  // 2. A private /tmp and no host sockets.
  m.mount("/tmp", "--bind", input.sessionTemp, "/tmp");
  args.push("--setenv", "TMPDIR", "/tmp");
  // The proxy's socket, the only way out of a sandbox whose network namespace is its own (read-only: it cannot be replaced).
  if (input.proxyDir) {
    if (policy.network) throw new Error("a proxy is for a sandbox without a network of its own");
    m.mount(bridgeMount, "--ro-bind", input.proxyDir, bridgeMount);
  }
  for (const [name, value] of Object.entries(input.setenv ?? {})) args.push("--setenv", name, value);
  const { hidden, roots, secrets, view } = homeLayout(input);
  const hide = (path: string) => {
    const kind = pathKind(path);
    if (kind === "dir") (m.mount(path, "--tmpfs", path), m.remountReadOnly(path));
    else if (kind === "file") m.mount(path, "--ro-bind", "/dev/null", path);
  };
  for (const path of new Set(hidden)) hide(path);
  // What /tmp (or the runtime dir) hid that must stay visible: home, and in read-only mode the workspace.
  const reshow = [input.home, ...(policy.readableRoots ?? []), ...(policy.mode === "read-only" ? [policy.workspaceRoot] : [])];
  for (const path of reshow) {
    if (path && isHidden(path, input) && pathKind(path) === "dir") m.mount(path, "--ro-bind", path, path);
  }

  // 3. Writable roots, then 4. what stays read-only inside them.
  for (const root of roots) m.root(root);
  const insideRoots = (path: string) => roots.some((root) => isInside(root, path));
  const home = input.home;
  // Held by a keeper already (its view is where this bwrap takes every bind from): not again.
  const inKeeper = view.rebuilt.size > 0 && input.keptHomeView === view.key;
  for (const { path, op } of view.mounts) {
    if (!inKeeper) m.mount(path, ...op);
    else if (op[0] === "--bind-try" || op[0] === "--ro-bind-try") m.keptBind(path);
  }
  // Home inside a root: the folders on the way to its start-up entries are pinned (a mount moves
  // with its folder). A rebuilt folder is a mount point already.
  const pinned = new Set<string>(view.rebuilt);
  const startup = home && insideRoots(home) ? pinStartupFolders(home, roots, input, m, pinned) : [];
  pinSecretFolders(secrets, roots, input, m, pinned);
  // Home inside a root: a secret the user has not got yet (no ~/.aws) is made an empty read-only
  // stub, as a missing start-up file, or a command plants one (a credential_process aws runs). In
  // a rebuilt folder nothing new can be made: no stub is needed.
  const missingSecrets = home && insideRoots(home) ? missingSecretStubs(home, policy, roots, input, m, pinned).filter(({ path }) => !landsInRebuilt(path, view, pathKind)) : [];
  // A rebuilt folder is not bound again (that would show the live one): its entries are bound read-only.
  const readOnlyBind = (path: string) => {
    m.keepReadOnly(path);
    if (!view.rebuilt.has(path)) m.mount(path, "--ro-bind", path, path);
  };
  const keepReadOnly = (path: string, kind: "dir" | "file") => {
    if (pathKind(path) !== "missing") readOnlyBind(input.realPath(path));
    // In a rebuilt folder (read-only at its top) it cannot be made: nothing to mount, nor a mount point a keeper's folder lacks.
    else if (!landsInRebuilt(path, view, pathKind)) {
      // Mounted empty and read-only: `mkdir .git`, `>.vscode/tasks.json` fail as they would on the real thing.
      if (kind === "dir") (m.mount(path, "--tmpfs", path), m.remountReadOnly(path));
      else m.mount(path, "--ro-bind", "/dev/null", path);
      stubs.push(path);
    }
  };
  const gitDirReadOnly = (dotGit: string) => {
    if (!dotGit.endsWith(`${sep}.git`) || pathKind(dotGit) !== "file") return;
    const gitDir = input.gitDirOf?.(dotGit);
    if (gitDir && insideRoots(gitDir) && pathKind(gitDir) === "dir") readOnlyBind(gitDir);
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
    if (entry.kind !== "symlink" || insideRoots(real)) readOnlyBind(real);
    gitDirReadOnly(entry.path);
  }
  for (const path of policy.readOnlyPaths ?? []) {
    if (insideRoots(path) && pathKind(path) !== "missing") readOnlyBind(input.realPath(path));
  }
  for (const path of policy.uncreatableDirs ?? []) if (insideRoots(path)) keepReadOnly(path, "dir");
  for (const { path, kind, stopped } of [...startup, ...missingSecrets]) {
    if (stopped === undefined) {
      if (!stubs.includes(path)) keepReadOnly(path, kind);
    } else if (!stubs.includes(stopped) && pathKind(stopped) === "missing" && !landsInRebuilt(stopped, view, pathKind)) {
      // Missing: it and all below it (every start-up entry there) are one stub, empty and read-only.
      m.mount(stopped, "--tmpfs", stopped);
      m.remountReadOnly(stopped);
      stubs.push(stopped);
    }
  }

  // A hidden path inside a writable root (the stub ledgers where $TMPDIR is in the workspace, a
  // socket there) was shown again by the root's bind: hidden once more.
  for (const path of new Set(hidden)) if (insideRoots(path)) hide(path);

  // 5. Secrets hidden, each place they are or were at (a renamed link's target stays hidden); at
  // one depth after every other mount, and nothing mounted below one but a writable root there (the
  // editor's storage under ~/.config/Code/User/globalStorage, bound while the tmpfs is still
  // writable: bwrap makes its mount point there), then each tmpfs made read-only (not recursively).
  const done = new Set<string>();
  for (const place of secrets) {
    const kind = pathKind(place.path);
    if (kind === "missing") continue;
    // In a rebuilt folder too: a start-up entry kept read-only (~/.ssh) was bound there again.
    const path = input.realPath(place.path);
    if (done.has(path)) continue;
    done.add(path);
    m.hideSecret(path);
    if (inKeeper && view.hiddenByKeeper.has(path)) {
      // Hidden by the keeper, read-only here with all it holds; but a writable root's bind shows its tmpfs writable.
      if (kind === "dir" && insideRoots(path)) m.remountReadOnly(path);
      continue;
    }
    if (kind === "dir") (m.mount(path, "--tmpfs", path), m.remountReadOnly(path));
    else if (kind === "file") m.mount(path, "--ro-bind", "/dev/null", path);
  }
  // From a keeper, a rebuilt folder is read-only already (this bwrap binds its whole view so), but where a writable root shows it.
  for (const dir of view.rebuilt) if (!inKeeper || insideRoots(dir)) m.remountReadOnly(dir);

  args.push(...m.args(), "--chdir", input.cwd, "--", ...command);
  return { args, stubs, homeView: view, inKeeper };
}

/**
 * The paths hidden (sockets, the runtime dir), the writable roots, the secrets and the folders
 * rebuilt around them: what the plan builds on, and all a home keeper needs (index.ts `prepare`).
 */
export function homeLayout(input: BwrapInputs): { hidden: string[]; roots: string[]; secrets: SecretPlace[]; view: HomeView } {
  const { policy, pathKind, home } = input;
  const hidden = [input.runtimeDir, ...hiddenSockets, ...(input.hiddenPaths ?? [])].flatMap((p) => (p && pathKind(p) !== "missing" ? [input.realPath(p)] : []));
  const roots = policy.mode === "workspace-write" ? unique([policy.workspaceRoot, ...policy.writableRoots]).filter((r) => pathKind(r) === "dir") : [];
  const secrets = (input.secrets ?? (home ? homeSecrets.map((name) => ({ name, path: join(home, name) })) : [])).filter((place) => !policy.visibleSecrets?.includes(place.name));
  // The folders holding the secrets, rebuilt (home-view.ts).
  const view = input.listFolder
    ? rebuildHomes({ homes: input.homes ?? (home ? [home] : []), hidden: new Set([...secrets.map((place) => place.path), ...hidden]), roots, pathKind, realPath: input.realPath, listFolder: input.listFolder })
    : noHomeView;
  return { hidden, roots, secrets, view };
}

/** Under /tmp or the runtime dir, which the sandbox replaces. */
function isHidden(path: string, input: Pick<BwrapInputs, "runtimeDir">): boolean {
  return isInside("/tmp", path) || (input.runtimeDir !== undefined && isInside(input.runtimeDir, path));
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
  return !shown.some((root) => root !== undefined && isInside(root, path));
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)].filter((p, i, all) => !all.some((other, j) => j !== i && other !== p && isInside(other, p) && relative(other, p) !== ""));
}

/**
 * The sandbox's mounts, in the order bwrap makes them. bwrap takes a bind's source from the host's
 * own tree, so a mount of a folder covers every mount made inside it before (d10b91f: the
 * read-only `.pi` of a writable root, bound after the rebuilt `~/.pi/agent`, showed the live
 * folder again, and the rebuilt folder's read-only remount then stopped bwrap). So:
 *  - the mounts go shallower first; at one depth in the order given (the later wins);
 *  - the read-only remounts come after every mount (a folder made read-only first could not take
 *    the mount point of one below it);
 *  - below a path kept read-only, every bind is read-only too, but a writable root's (the policy's
 *    own choice);
 *  - nothing is mounted below a hidden secret but a writable root and what lies in it (a nested
 *    `.git` the deep scan found in ~/.password-store must not show it).
 */
import { isInside } from "../real-path";

interface Mount {
  path: string;
  op: string[];
  root: boolean;
}

export interface MountList {
  /** A mount at `path` (bwrap's option and its operands). */
  mount(path: string, ...op: string[]): void;
  /** A writable root bound at `path`. */
  root(path: string): void;
  /** `path` made read-only once everything is mounted (not recursively). */
  remountReadOnly(path: string): void;
  /** What lies at or below `path` stays read-only. */
  keepReadOnly(path: string): void;
  /** A secret hidden at `path`: nothing else is mounted below it. */
  hideSecret(path: string): void;
  /**
   * A bind a home keeper made (home-keeper.ts), writable there: made read-only where a bind here
   * would be (below a path kept read-only, in a writable root that shows it writable).
   */
  keptBind(path: string): void;
  /** The bwrap arguments, in order. */
  args(): string[];
}

const depth = (path: string) => path.split("/").filter(Boolean).length;

export function mountList(): MountList {
  const mounts: Mount[] = [];
  const remounts: string[] = [];
  const readOnly: string[] = [];
  const secrets: string[] = [];
  const kept: string[] = [];
  return {
    mount: (path, ...op) => void mounts.push({ path, op, root: false }),
    root: (path) => void mounts.push({ path, op: ["--bind", path, path], root: true }),
    remountReadOnly: (path) => void remounts.push(path),
    keepReadOnly: (path) => void readOnly.push(path),
    hideSecret: (path) => void secrets.push(path),
    keptBind: (path) => void kept.push(path),
    args() {
      const roots = mounts.filter((m) => m.root).map((m) => m.path);
      const shown = (m: Mount) =>
        !secrets.some((secret) => secret !== m.path && isInside(secret, m.path) && !roots.some((root) => isInside(secret, root) && root !== secret && isInside(root, m.path)));
      const readOnlyBind = (m: Mount): string[] => {
        const writable = m.op[0] === "--bind" || m.op[0] === "--bind-try";
        if (!writable || m.root || !readOnly.some((path) => isInside(path, m.path))) return m.op;
        return [m.op[0] === "--bind" ? "--ro-bind" : "--ro-bind-try", ...m.op.slice(1)];
      };
      const ordered = mounts
        .map((m, i) => ({ m, i }))
        .filter(({ m }) => shown(m))
        .sort((a, b) => depth(a.m.path) - depth(b.m.path) || a.i - b.i);
      const keptReadOnly = kept.filter((path) => roots.some((root) => isInside(root, path)) && readOnly.some((ro) => isInside(ro, path)) && !remounts.includes(path));
      return [...ordered.flatMap(({ m }) => readOnlyBind(m)), ...[...remounts, ...keptReadOnly].flatMap((path) => ["--remount-ro", path])];
    },
  };
}

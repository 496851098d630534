import { strict as assert } from "node:assert";
import type { PathKind } from "./bwrap-args";
import { landsInRebuilt, rebuildHomes, type HomeView, type HomeViewInputs, type ListedFolder } from "./home-view";

/** A home of a few folders; listFolder lists the paths given directly below a folder. */
function inputs(paths: Record<string, PathKind | { link: string }>, over: Partial<HomeViewInputs> = {}): HomeViewInputs {
  const kindOf = (p: string): PathKind => {
    const v = paths[p];
    return v === undefined ? "missing" : typeof v === "string" ? v : "dir";
  };
  return {
    homes: ["/home/u"],
    hidden: new Set(["/home/u/.ssh", "/home/u/.netrc", "/home/u/.config/gh", "/home/u/.docker/config.json"]),
    roots: ["/home/u/proj"],
    pathKind: kindOf,
    realPath: (p) => p,
    listFolder: (dir): ListedFolder | undefined => {
      if (kindOf(dir) !== "dir") return undefined;
      const entries = Object.entries(paths)
        .filter(([p]) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes("/"))
        .map(([p, v]) => {
          const name = p.slice(dir.length + 1);
          return typeof v === "object" ? { name, kind: "symlink" as const, target: v.link } : { name, kind: v === "dir" ? ("dir" as const) : ("file" as const) };
        });
      return { mode: 0o40700, entries };
    },
    ...over,
  };
}

/** The operations as [option, ...operands] groups. */
function ops(args: string[]): string[][] {
  const arity: Record<string, number> = { "--perms": 1, "--tmpfs": 1, "--bind-try": 2, "--ro-bind-try": 2, "--symlink": 2, "--remount-ro": 1 };
  const out: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    const n = arity[args[i]!] ?? 0;
    out.push(args.slice(i, i + 1 + n));
    i += n;
  }
  return out;
}
const has = (args: string[], ...group: string[]) => ops(args).some((m) => m.join("\0") === group.join("\0"));
const flat = (view: HomeView) => view.mounts.flatMap((m) => m.op);

describe("sandbox: home rebuilt around its secrets (home-view.ts)", () => {
  const fs = {
    "/home/u": "dir",
    "/home/u/proj": "dir",
    "/home/u/.ssh": "dir",
    "/home/u/.netrc": "file",
    "/home/u/.bashrc": "file",
    "/home/u/.config": "dir",
    "/home/u/.config/fish": "dir",
    "/home/u/dots": { link: "proj" },
  } as const;

  it("rebuilds the folder holding each secret (one missing too): its other entries bound, links made again, no secret", () => {
    const view = rebuildHomes(inputs(fs));
    const args = flat(view);
    assert.deepEqual([...view.rebuilt].sort(), ["/home/u", "/home/u/.config"]);
    assert.ok(view.mounts.some((m) => m.path === "/home/u" && m.op.join(" ") === "--perms 0700 --tmpfs /home/u"), "an empty folder of the same mode");
    assert.ok(has(args, "--ro-bind-try", "/home/u/.bashrc", "/home/u/.bashrc"), "read-only outside the writable roots");
    assert.ok(has(args, "--bind-try", "/home/u/proj", "/home/u/proj"), "the workspace writable");
    assert.ok(has(args, "--symlink", "proj", "/home/u/dots"));
    assert.ok(has(args, "--ro-bind-try", "/home/u/.config/fish", "/home/u/.config/fish"));
    for (const secret of ["/home/u/.ssh", "/home/u/.netrc"]) assert.ok(!args.includes(secret), `${secret} left out`);
    // ~/.docker is missing: home is where it would appear, and it is rebuilt already.
  });

  it("with home inside a writable root, its entries are bound writable", () => {
    const args = flat(rebuildHomes(inputs(fs, { roots: ["/home/u"] })));
    assert.ok(has(args, "--bind-try", "/home/u/.bashrc", "/home/u/.bashrc"));
  });

  it("a secret's place reached through a linked folder: the link's target folder is rebuilt, not the link", () => {
    const linked = { ...fs, "/home/u/.config": { link: "dotfiles/config" }, "/home/u/dotfiles": "dir", "/home/u/dotfiles/config": "dir", "/home/u/dotfiles/config/gh": "dir" } as const;
    const view = rebuildHomes(inputs(linked, { hidden: new Set(["/home/u/.netrc", "/home/u/.config/gh", "/home/u/dotfiles/config/gh"]), realPath: (p) => p.replace("/home/u/.config", "/home/u/dotfiles/config") }));
    assert.ok(view.rebuilt.has("/home/u/dotfiles/config"));
    assert.ok(!view.rebuilt.has("/home/u/.config"));
    assert.ok(has(flat(view), "--symlink", "dotfiles/config", "/home/u/.config"));
  });

  it("a place outside every home, or a home that is /, rebuilds nothing", () => {
    assert.equal(rebuildHomes(inputs(fs, { hidden: new Set(["/srv/keys"]) })).rebuilt.size, 0);
    assert.equal(rebuildHomes(inputs({ "/": "dir", "/.netrc": "file" }, { homes: ["/"], hidden: new Set(["/.netrc"]) })).rebuilt.size, 0);
  });

  it("gives a keeper the same folders with every entry writable (each command's bwrap makes them read-only) and each hidden entry hidden there", () => {
    const view = rebuildHomes(inputs(fs));
    const kept = view.kept.flatMap((m) => m.op);
    assert.ok(has(kept, "--perms", "0700") && has(kept, "--tmpfs", "/home/u"));
    assert.ok(has(kept, "--bind-try", "/home/u/.bashrc", "/home/u/.bashrc"), "writable in the keeper");
    assert.ok(has(kept, "--symlink", "proj", "/home/u/dots"));
    assert.ok(has(kept, "--tmpfs", "/home/u/.ssh"), "a hidden folder: an empty one where it is");
    assert.ok(has(kept, "--ro-bind-try", "/dev/null", "/home/u/.netrc"), "a hidden file: /dev/null");
    assert.deepEqual([...view.hiddenByKeeper].sort(), ["/home/u/.netrc", "/home/u/.ssh"]);
  });

  it("keys the listing: a name added, a file replaced (another id), a link retargeted each give another key", () => {
    const key = rebuildHomes(inputs(fs)).key;
    assert.equal(rebuildHomes(inputs(fs)).key, key, "the same folders, the same key");
    assert.notEqual(rebuildHomes(inputs({ ...fs, "/home/u/.profile": "file" })).key, key);
    assert.notEqual(rebuildHomes(inputs({ ...fs, "/home/u/dots": { link: "elsewhere" } })).key, key);
    const withIds = (id: string) =>
      rebuildHomes({ ...inputs(fs), listFolder: (dir) => { const listed = inputs(fs).listFolder(dir); return listed && { ...listed, entries: listed.entries.map((e) => ({ ...e, id: e.name === ".bashrc" ? id : "1" })) }; } }).key;
    assert.notEqual(withIds("7:100"), withIds("7:101"), "~/.bashrc saved by rename: the keeper's bind is of the old file");
  });

  it("says which mount points land in a rebuilt folder (a tmpfs of the sandbox) and which on the host", () => {
    const view = rebuildHomes(inputs(fs));
    const kind = inputs(fs).pathKind;
    assert.equal(landsInRebuilt("/home/u/.vscode", view, kind), true);
    assert.equal(landsInRebuilt("/home/u/.local/bin", view, kind), true, "below a missing folder of home");
    assert.equal(landsInRebuilt("/home/u/proj/.git", view, kind), false, "in a bound folder: on the host");
  });

  // A copy made between the look at the secrets' places and the listing (vim's swap file as the
  // user opens ~/.netrc) was not yet a place: the listing bound it.
  it("leaves out a copy of a hidden entry beside it that the places do not name yet", () => {
    const view = rebuildHomes(inputs({ "/home/u": "dir", "/home/u/.netrc": "file", "/home/u/.netrc.swp": "file", "/home/u/.ssh.bak": "dir", "/home/u/notes": "file" }));
    assert.ok(!flat(view).includes("/home/u/.netrc.swp") && !flat(view).includes("/home/u/.ssh.bak"), JSON.stringify(view.mounts));
    assert.ok(view.hiddenByKeeper.has("/home/u/.netrc.swp") && view.hiddenByKeeper.has("/home/u/.ssh.bak"));
    assert.ok(flat(view).includes("/home/u/notes"));
  });
});

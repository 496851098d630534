import { strict as assert } from "node:assert";
import { buildBwrapArgs, type BwrapInputs, type PathKind } from "./bwrap-args";
import { sandboxDenial } from "./denials";
import { buildSeatbeltProfile } from "./seatbelt";

/** A file system of a few paths; everything else is missing. */
function inputs(paths: Record<string, PathKind>, over: Partial<BwrapInputs> = {}): BwrapInputs {
  return {
    policy: { mode: "workspace-write", network: false, workspaceRoot: "/home/u/proj", writableRoots: [] },
    cwd: "/home/u/proj",
    home: "/home/u",
    sessionTemp: "/tmp/pi-sandbox-1",
    pathKind: (p) => paths[p] ?? "missing",
    realPath: (p) => p,
    ...over,
  };
}

/** The mounts as [option, ...operands] groups, in order. */
function mounts(args: string[]): string[][] {
  const arity: Record<string, number> = { "--ro-bind": 2, "--bind": 2, "--tmpfs": 1, "--remount-ro": 1, "--dev": 1, "--proc": 1, "--setenv": 2, "--chdir": 1, "--cap-drop": 1 };
  const out: string[][] = [];
  for (let i = 0; i < args.length && args[i] !== "--"; i++) {
    const n = arity[args[i]] ?? 0;
    out.push(args.slice(i, i + 1 + n));
    i += n;
  }
  return out;
}
const has = (args: string[], ...group: string[]) => mounts(args).some((m) => m.join("\0") === group.join("\0"));
const indexOf = (args: string[], ...group: string[]) => mounts(args).findIndex((m) => m.join("\0") === group.join("\0"));

describe("sandbox: the bubblewrap arguments", () => {
  const fs = { "/home/u": "dir", "/home/u/proj": "dir", "/home/u/proj/.git": "dir", "/home/u/.ssh": "dir", "/home/u/.netrc": "file" } as const;

  it("starts from a read-only root, in new user/PID/IPC/UTS/net namespaces with a fresh /proc and no capabilities", () => {
    const { args } = buildBwrapArgs(inputs(fs), ["/bin/bash", "-c", "true"]);
    assert.deepEqual(args.slice(0, 3), ["--ro-bind", "/", "/"]);
    for (const flag of ["--unshare-user", "--disable-userns", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net"]) assert.ok(args.includes(flag), flag);
    assert.ok(has(args, "--cap-drop", "ALL"));
    assert.ok(has(args, "--proc", "/proc"));
    assert.deepEqual(args.slice(args.indexOf("--")), ["--", "/bin/bash", "-c", "true"]);
  });

  it("lets the network in only when the policy allows it", () => {
    const policy = { mode: "workspace-write" as const, network: true, workspaceRoot: "/home/u/proj", writableRoots: [] };
    assert.equal(buildBwrapArgs(inputs(fs, { policy }), ["true"]).args.includes("--unshare-net"), false);
  });

  it("binds the workspace writable, then its .git read-only after it (a later mount wins)", () => {
    const { args } = buildBwrapArgs(inputs(fs), ["true"]);
    const rw = indexOf(args, "--bind", "/home/u/proj", "/home/u/proj");
    const git = indexOf(args, "--ro-bind", "/home/u/proj/.git", "/home/u/proj/.git");
    assert.ok(rw > 0 && git > rw, `${rw} ${git}`);
  });

  it("mounts a missing protected dir empty and read-only, and reports it as a stub to clean up", () => {
    const { args, stubs } = buildBwrapArgs(inputs(fs), ["true"]);
    assert.ok(has(args, "--tmpfs", "/home/u/proj/.vscode") && has(args, "--remount-ro", "/home/u/proj/.vscode"));
    assert.ok(has(args, "--ro-bind", "/dev/null", "/home/u/proj/.npmrc"), "a missing protected file: /dev/null, read-only");
    assert.ok(stubs.includes("/home/u/proj/.vscode") && stubs.includes("/home/u/proj/.npmrc"));
    assert.equal(stubs.includes("/home/u/proj/.git"), false, "an existing one is no stub");
  });

  it("makes nothing writable in read-only mode but the session's /tmp", () => {
    const policy = { mode: "read-only" as const, network: false, workspaceRoot: "/home/u/proj", writableRoots: ["/home/u/other"] };
    const { args, stubs } = buildBwrapArgs(inputs(fs, { policy }), ["true"]);
    const writable = mounts(args).filter((m) => m[0] === "--bind");
    assert.deepEqual(writable, [["--bind", "/tmp/pi-sandbox-1", "/tmp"]]);
    assert.deepEqual(stubs, []);
  });

  it("hides the home secrets that exist, after every other mount", () => {
    const { args } = buildBwrapArgs(inputs(fs), ["true"]);
    const ssh = indexOf(args, "--tmpfs", "/home/u/.ssh");
    assert.ok(ssh > 0 && has(args, "--remount-ro", "/home/u/.ssh"));
    assert.ok(has(args, "--ro-bind", "/dev/null", "/home/u/.netrc"));
    assert.ok(mounts(args).slice(ssh).every((m) => m[0] !== "--bind"), "no writable mount after the secrets");
    assert.equal(args.some((a) => a.includes(".aws")), false, "a missing secret needs no mount");
  });

  // HOME unset (a service, a container's entry point): the account's home's secrets, found by
  // secret-places.ts secretHomes, were dropped with it (nothing hidden).
  it("hides the secrets it is given with no HOME", () => {
    const secrets = [{ name: ".ssh", path: "/home/u/.ssh" }, { name: ".netrc", path: "/home/u/.netrc" }];
    const { args } = buildBwrapArgs(inputs(fs, { home: undefined, secrets }), ["true"]);
    assert.ok(has(args, "--tmpfs", "/home/u/.ssh") && has(args, "--remount-ro", "/home/u/.ssh"));
    assert.ok(has(args, "--ro-bind", "/dev/null", "/home/u/.netrc"));
  });

  it("leaves the secrets a whole agent needs visible, and shows a writable root inside a hidden folder again", () => {
    const withAuth = { ...fs, "/home/u/.pi/agent/auth.json": "file", "/home/u/.config/Code/User/globalStorage": "dir", "/home/u/.config/Code/User/globalStorage/pi/checkpoints": "dir" } as const;
    const policy = { mode: "workspace-write" as const, network: true, workspaceRoot: "/home/u/proj", writableRoots: ["/home/u/.config/Code/User/globalStorage/pi/checkpoints"], visibleSecrets: [".pi/agent/auth.json"] };
    const { args } = buildBwrapArgs(inputs(withAuth, { policy }), ["pi"]);
    assert.equal(has(args, "--ro-bind", "/dev/null", "/home/u/.pi/agent/auth.json"), false, "auth.json stays visible");
    assert.ok(has(args, "--ro-bind", "/dev/null", "/home/u/.netrc"), "the other secrets are still hidden");
    const hidden = indexOf(args, "--tmpfs", "/home/u/.config/Code/User/globalStorage");
    const binds = mounts(args).map((m, i) => (m.join("\0") === ["--bind", policy.writableRoots[0], policy.writableRoots[0]].join("\0") ? i : -1));
    const shown = Math.max(...binds);
    assert.ok(hidden > 0 && shown > hidden, "the checkpoint store is bound again after its hidden parent");
  });

  it("keeps the home's start-up files read-only when home lies inside a writable root", () => {
    const policy = { mode: "workspace-write" as const, network: false, workspaceRoot: "/home/u", writableRoots: [] };
    const { args } = buildBwrapArgs(inputs({ ...fs, "/home/u/.bashrc": "file" }, { policy, cwd: "/home/u" }), ["true"]);
    assert.ok(has(args, "--ro-bind", "/home/u/.bashrc", "/home/u/.bashrc"));
    assert.ok(has(args, "--ro-bind", "/dev/null", "/home/u/.profile"), "a missing one cannot be created");
  });

  it("hides a hidden path that lies inside a writable root after the root's bind (which would show it again)", () => {
    const files = { ...fs, "/home/u/proj/tmp/pi-sandbox-stubs-0": "dir" } as const;
    const { args } = buildBwrapArgs(inputs(files, { hiddenPaths: ["/home/u/proj/tmp/pi-sandbox-stubs-0"] }), ["true"]);
    const bind = indexOf(args, "--bind", "/home/u/proj", "/home/u/proj");
    const hidden = mounts(args).map((m) => m.join(" ")).lastIndexOf("--tmpfs /home/u/proj/tmp/pi-sandbox-stubs-0");
    assert.ok(bind > 0 && hidden > bind, "the last word is the tmpfs");
  });

  // Home as the workspace and no ~/.aws yet: the sandboxed bash made ~/.aws/config with a
  // credential_process, which the user's aws then ran outside any sandbox (session 21 review).
  it("with home in a writable root, makes each missing secret an empty read-only stub of its kind", () => {
    const policy = { mode: "workspace-write" as const, network: false, workspaceRoot: "/home/u", writableRoots: [] };
    const files = { ...fs, "/home/u/.config": "dir" } as const;
    const { args, stubs } = buildBwrapArgs(inputs(files, { policy, cwd: "/home/u" }), ["true"]);
    assert.ok(has(args, "--tmpfs", "/home/u/.aws") && has(args, "--remount-ro", "/home/u/.aws"), "a missing secret folder");
    assert.ok(has(args, "--tmpfs", "/home/u/.config/gh") && has(args, "--remount-ro", "/home/u/.config/gh"), "below a folder that exists");
    assert.ok(has(args, "--tmpfs", "/home/u/.docker") && has(args, "--remount-ro", "/home/u/.docker"), "the missing folder on the way to a secret file");
    assert.ok(has(args, "--ro-bind", "/dev/null", "/home/u/.git-credentials"), "a missing secret file");
    assert.ok(stubs.includes("/home/u/.aws") && stubs.includes("/home/u/.git-credentials"), "removed after the command, as the start-up stubs");
    assert.equal(new Set(stubs).size, stubs.length, "each stub once");
    const outside = buildBwrapArgs(inputs(files), ["true"]).args;
    assert.equal(has(outside, "--tmpfs", "/home/u/.aws"), false, "home not writable: nothing to stub");
  });

  it("pins the folders on the way to each place a secret is or was at, inside the writable roots only (a bind outside them would make it writable)", () => {
    const policy = { mode: "workspace-write" as const, network: false, workspaceRoot: "/home/u", writableRoots: [] };
    const files = { ...fs, "/": "dir", "/home": "dir", "/home/u/.docker": "dir", "/home/u/.docker/config.json": "file", "/home/u/dotfiles": "dir", "/home/u/dotfiles/ssh": "dir", "/opt": "dir", "/opt/keys": "dir", "/opt/keys/aws": "dir" } as const;
    // Remembered places: ~/.ssh's target in dotfiles (the link since renamed), and ~/.aws's outside home.
    const secrets = [{ name: ".docker/config.json", path: "/home/u/.docker/config.json" }, { name: ".ssh", path: "/home/u/dotfiles/ssh" }, { name: ".aws", path: "/opt/keys/aws" }];
    const { args } = buildBwrapArgs(inputs(files, { policy, cwd: "/home/u", secrets }), ["true"]);
    assert.ok(has(args, "--bind", "/home/u/.docker", "/home/u/.docker"), "`mv .docker d` fails: its config.json's mount cannot leave");
    assert.ok(has(args, "--bind", "/home/u/dotfiles", "/home/u/dotfiles"), "the folder holding a remembered place is pinned");
    assert.ok(has(args, "--tmpfs", "/home/u/dotfiles/ssh") && has(args, "--tmpfs", "/opt/keys/aws"), "each remembered place hidden");
    const writable = mounts(args).filter((m) => m[0] === "--bind" && m[2] !== "/tmp").map((m) => m[1]!);
    assert.deepEqual(writable.filter((path) => !path.startsWith("/home/u")), [], "nothing outside the writable root made writable (the session's /tmp aside)");
  });

  it("pins the folders between the root and a deeper start-up entry (a mount moves with a renamed folder)", () => {
    const policy = { mode: "workspace-write" as const, network: false, workspaceRoot: "/home/u", writableRoots: [] };
    const files = { ...fs, "/home/u/.config": "dir", "/home/u/.config/fish": "dir" } as const;
    const { args, stubs } = buildBwrapArgs(inputs(files, { policy, cwd: "/home/u" }), ["true"]);
    const pin = indexOf(args, "--bind", "/home/u/.config", "/home/u/.config");
    assert.ok(pin > 0, "~/.config is a mount point: `mv ~/.config x` fails");
    assert.ok(pin < indexOf(args, "--ro-bind", "/home/u/.config/fish", "/home/u/.config/fish"), "pinned before its read-only entry");
    assert.equal(mounts(args).filter((m) => m[0] === "--bind" && m[1] === "/home/u/.config").length, 1, "once");
    // ~/.local is missing: it is the stub, read-only, not an empty .local/bin in a folder that can be renamed.
    assert.ok(has(args, "--tmpfs", "/home/u/.local") && has(args, "--remount-ro", "/home/u/.local"));
    assert.ok(stubs.includes("/home/u/.local") && !stubs.some((s) => s.startsWith("/home/u/.local/")));
    // A nested repository in ~/.config stays read-only: the pin comes before it (a later bind would cover it).
    const nested = buildBwrapArgs(inputs(files, { policy, cwd: "/home/u", nested: [{ path: "/home/u/.config/tool/.git", kind: "dir", dev: 1, ino: 2 }], pathKind: (p) => (p === "/home/u/.config/tool/.git" ? "dir" : (files as Record<string, PathKind>)[p] ?? "missing") }), ["true"]).args;
    assert.ok(indexOf(nested, "--bind", "/home/u/.config", "/home/u/.config") < indexOf(nested, "--ro-bind", "/home/u/.config/tool/.git", "/home/u/.config/tool/.git"));
    // Home strictly inside the root: home itself is pinned.
    const wider = buildBwrapArgs(inputs({ ...files, "/home": "dir" }, { policy: { ...policy, workspaceRoot: "/home" }, cwd: "/home/u" }), ["true"]).args;
    assert.ok(has(wider, "--bind", "/home/u", "/home/u") && has(wider, "--bind", "/home/u/.config", "/home/u/.config"));
    // A symlinked ~/.config cannot be pinned: not bound (it would land on the target), its entries mounted as before.
    const linked = buildBwrapArgs(inputs(files, { policy, cwd: "/home/u", realPath: (p) => p.replace("/home/u/.config", "/home/u/dotfiles/config") }), ["true"]).args;
    assert.equal(mounts(linked).some((m) => m[0] === "--bind" && m[1].startsWith("/home/u/dotfiles")), false);
  });

  it("protects a worktree's git dir (config, hooks) when it lies inside a writable root", () => {
    const policy = { mode: "workspace-write" as const, network: false, workspaceRoot: "/home/u/proj", writableRoots: ["/home/u/main"] };
    const files = { ...fs, "/home/u/proj/.git": "file", "/home/u/main": "dir", "/home/u/main/.git": "dir" } as const;
    const { args } = buildBwrapArgs(inputs(files, { policy, gitDirOf: () => "/home/u/main/.git" }), ["true"]);
    assert.ok(has(args, "--ro-bind", "/home/u/main/.git", "/home/u/main/.git"));
    assert.ok(has(args, "--ro-bind", "/home/u/proj/.git", "/home/u/proj/.git"), "the .git file itself too");
  });

  it("hides the user's runtime dir and the sockets the environment names, and shows home again when /tmp hid it", () => {
    const files = { ...fs, "/run/user/1000": "dir", "/tmp/agent.sock": "file", "/tmp/h": "dir" } as const;
    const { args } = buildBwrapArgs(inputs(files, { runtimeDir: "/run/user/1000", hiddenPaths: ["/tmp/agent.sock"], home: "/tmp/h" }), ["true"]);
    assert.ok(has(args, "--tmpfs", "/run/user/1000"));
    assert.ok(has(args, "--ro-bind", "/dev/null", "/tmp/agent.sock"));
    assert.ok(has(args, "--ro-bind", "/tmp/h", "/tmp/h"));
  });

  it("with allowed hosts: its own network namespace, the proxy's folder read-only over the private /tmp", () => {
    const policy = { mode: "workspace-write" as const, network: false, allowedHosts: ["example.com"], workspaceRoot: "/home/u/proj", writableRoots: [] };
    const { args } = buildBwrapArgs(inputs(fs, { policy, proxyDir: "/tmp/pi-net-1", setenv: { ELECTRON_RUN_AS_NODE: "1" } }), ["true"]);
    assert.ok(args.includes("--unshare-net"), "nothing direct reaches out");
    assert.ok(has(args, "--ro-bind", "/tmp/pi-net-1", "/tmp/.pi-net"));
    assert.ok(indexOf(args, "--bind", "/tmp/pi-sandbox-1", "/tmp") < indexOf(args, "--ro-bind", "/tmp/pi-net-1", "/tmp/.pi-net"), "mounted after /tmp, which would hide it");
    assert.ok(has(args, "--setenv", "ELECTRON_RUN_AS_NODE", "1"));
    assert.throws(() => buildBwrapArgs(inputs(fs, { policy: { ...policy, network: true }, proxyDir: "/tmp/pi-net-1" }), ["true"]), "a proxy never goes with the host's network");
  });

  describe("from a home keeper (home-keeper.ts)", () => {
    const home = { ...fs, "/home/u/.bashrc": "file", "/home/u/notes.txt": "file", "/home/u/.codex": "dir", "/home/u/.codex/auth.json": "file", "/home/u/.codex/config.toml": "file" } as const;
    const listFolder = (dir: string) => {
      const names = Object.keys(home).filter((p) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes("/"));
      return { mode: 0o40700, entries: names.map((p) => ({ name: p.slice(dir.length + 1), kind: home[p as keyof typeof home] })) };
    };
    const secrets = [".ssh", ".netrc", ".codex/auth.json", ".git-credentials"].map((name) => ({ name, path: `/home/u/${name}` }));
    const over = { listFolder, secrets };

    it("leaves out the rebuilt folders the keeper holds with the same key, and hides no secret it hid", () => {
      const whole = buildBwrapArgs(inputs(home, over), ["true"]);
      assert.equal(whole.inKeeper, false, "no keeper: rebuilt here");
      assert.ok(has(whole.args, "--tmpfs", "/home/u") && has(whole.args, "--tmpfs", "/home/u/.ssh"));
      const kept = buildBwrapArgs(inputs(home, { ...over, keptHomeView: whole.homeView.key }), ["true"]);
      assert.equal(kept.inKeeper, true);
      for (const gone of [["--tmpfs", "/home/u"], ["--tmpfs", "/home/u/.ssh"], ["--ro-bind", "/dev/null", "/home/u/.netrc"], ["--remount-ro", "/home/u"]]) assert.ok(!has(kept.args, ...gone), gone.join(" "));
      assert.ok(has(kept.args, "--bind", "/home/u/proj", "/home/u/proj"), "the workspace bound from the keeper's view");
      assert.ok(has(kept.args, "--tmpfs", "/home/u/proj/.vscode"), "the root's own protected names as ever");
      const stale = buildBwrapArgs(inputs(home, { ...over, keptHomeView: "another listing" }), ["true"]);
      assert.equal(stale.inKeeper, false, "a keeper of another listing: rebuilt here");
      assert.deepEqual(stale.args, whole.args);
    });

    it("home a writable root: the keeper's writable binds below a name kept read-only (.codex) made read-only, with its folders", () => {
      const inHome = { ...over, policy: { mode: "workspace-write" as const, network: false, workspaceRoot: "/home/u", writableRoots: [] }, cwd: "/home/u" };
      const { homeView } = buildBwrapArgs(inputs(home, inHome), ["true"]);
      const kept = buildBwrapArgs(inputs(home, { ...inHome, keptHomeView: homeView.key }), ["true"]);
      assert.ok(kept.inKeeper);
      for (const path of ["/home/u/.codex/config.toml", "/home/u/.codex", "/home/u"]) assert.ok(has(kept.args, "--remount-ro", path), path);
      assert.ok(has(kept.args, "--remount-ro", "/home/u/.bashrc"), "a start-up file kept read-only");
      assert.ok(!has(kept.args, "--remount-ro", "/home/u/notes.txt"), "a writable entry stays writable");
      assert.ok(has(kept.args, "--remount-ro", "/home/u/.ssh"), "a hidden folder's tmpfs, shown writable by home's bind");
    });

    it("mounts nothing at a missing protected name in a rebuilt folder (nothing can be made there), in either way", () => {
      const inHome = { ...over, policy: { mode: "workspace-write" as const, network: false, workspaceRoot: "/home/u", writableRoots: [] }, cwd: "/home/u" };
      const whole = buildBwrapArgs(inputs(home, inHome), ["true"]);
      for (const plan of [whole, buildBwrapArgs(inputs(home, { ...inHome, keptHomeView: whole.homeView.key }), ["true"])]) {
        assert.ok(!plan.args.includes("/home/u/.vscode") && !plan.args.includes("/home/u/.envrc"));
        assert.deepEqual(plan.stubs, []);
      }
    });
  });

  it("refuses full-access (it runs without bwrap)", () => {
    const policy = { mode: "full-access" as const, network: true, workspaceRoot: "/w", writableRoots: [] };
    assert.throws(() => buildBwrapArgs(inputs(fs, { policy }), ["true"]));
  });
});

describe("sandbox: telling a refusal from an ordinary failure", () => {
  it("recognises writes refused, the missing network, a hidden secret, the private /tmp", () => {
    assert.ok(sandboxDenial("bash: .git/config: Read-only file system", false));
    assert.ok(sandboxDenial("curl: (6) Could not resolve host: example.com", false));
    assert.ok(sandboxDenial("bash: connect: Connection refused", false));
    assert.ok(sandboxDenial("cat: /home/u/.ssh/id_rsa: No such file or directory", false));
    assert.ok(sandboxDenial("bash: /tmp/x/out: No such file or directory", false));
  });
  it("leaves ordinary failures alone, and network errors when the network is allowed", () => {
    assert.equal(sandboxDenial("error TS2345: Argument of type 'x'", false), undefined);
    assert.equal(sandboxDenial("cat: notes.txt: No such file or directory", false), undefined);
    assert.equal(sandboxDenial("curl: (6) Could not resolve host: example.com", true), undefined);
  });
});

describe("sandbox: telling a refusal of the network proxy, naming the host", () => {
  it("names the host from the proxy's reason phrase or from what the proxy refused while the command ran", () => {
    const phrase = sandboxDenial("curl: (22) The requested URL returned error: 403 Forbidden by the Pi sandbox: evil.com:443 is not an allowed host", "proxy");
    assert.match(phrase ?? "", /proxy refused evil\.com:443 .*pi\.sandbox\.allowedHosts/);
    for (const output of ["curl: (56) CONNECT tunnel failed, response 403", "curl: (56) Received HTTP code 403 from proxy after CONNECT", "pip: ProxyError('Cannot connect to proxy.', OSError('Tunnel connection failed: 403 Forbidden'))", "npm error code E403\nnpm error 403 403 Forbidden - GET https://evil.com/x (proxy)", "fatal: unable to access 'https://evil.com/r.git/': CONNECT tunnel failed, response 403"]) {
      assert.match(sandboxDenial(output, "proxy", ["evil.com:443"]) ?? "", /proxy refused evil\.com:443/, output);
      assert.match(sandboxDenial(output, "proxy") ?? "", /proxy refused a host/, output);
    }
  });
  it("with the proxy, a direct attempt is the missing network of its own; ordinary failures stay alone", () => {
    assert.match(sandboxDenial("curl: (6) Could not resolve host: example.com", "proxy") ?? "", /no network of its own: only allowed hosts/);
    assert.match(sandboxDenial("curl: (7) Failed to connect to 127.0.0.1 port 9", "proxy", ["vm:9"]) ?? "", /proxy refused vm:9/);
    assert.equal(sandboxDenial("error TS2345: Argument of type 'x'", "proxy", ["evil.com:443"]), undefined, "a refusal during the command explains only a network failure");
    assert.equal(sandboxDenial("curl: (22) The requested URL returned error: 404", "proxy"), undefined);
  });
});

describe("sandbox: the macOS profile", () => {
  it("denies writes but the temp dir and the workspace, the protected names (existing or not), secrets and the network", () => {
    const profile = buildSeatbeltProfile({ policy: { mode: "workspace-write", network: false, workspaceRoot: "/Users/u/p", writableRoots: [] }, home: "/Users/u", sessionTemp: "/private/tmp/s" });
    assert.match(profile, /\(deny file-write\*\)/);
    assert.match(profile, /\(allow file-write\* \(subpath "\/private\/tmp\/s"\) \(subpath "\/Users\/u\/p"\)/);
    assert.match(profile, /\(subpath "\/Users\/u\/p\/\.git"\)/);
    // At any depth, existing or not (Seatbelt matches by regex; bubblewrap cannot).
    const nested = /\(regex #"(\^\/Users\/u\/p\/[^"]*)"\)/.exec(profile);
    assert.ok(nested, profile);
    const rule = new RegExp(nested[1]);
    for (const path of ["/Users/u/p/sub/.git", "/Users/u/p/a/b/.git/config", "/Users/u/p/apps/web/.vscode/tasks.json", "/Users/u/p/x/.npmrc"]) assert.ok(rule.test(path), path);
    for (const path of ["/Users/u/p/sub/.gitignore", "/Users/u/p/src/a.ts", "/Users/u/px/.git", "/Users/u/p/a.git"]) assert.ok(!rule.test(path), path);
    const packages = /\(allow file-write\* \(regex #"([^"]*node_modules[^"]*)"\)\)/.exec(profile);
    assert.ok(packages && profile.indexOf(packages[0]) > profile.indexOf(nested[0]), "inside a package of node_modules: allowed again, after the rule");
    assert.ok(new RegExp(packages[1]).test("/Users/u/p/node_modules/pkg/.github/x.yml"));
    assert.ok(!new RegExp(packages[1]).test("/Users/u/p/node_modules/.git/config"), "node_modules' own entries stay covered");
    assert.ok(profile.lastIndexOf('(subpath "/Users/u/p/.git")') > profile.indexOf(packages[0]), "the top-level names come last (a later rule wins)");
    assert.match(profile, /\(deny file-read\* file-write\* [^\n]*\(subpath "\/Users\/u\/\.ssh"\)/);
    assert.match(profile, /\(deny network\*\)/);
  });
  it("quotes paths (a quote or backslash in a folder name cannot end the string)", () => {
    const profile = buildSeatbeltProfile({ policy: { mode: "read-only", network: true, workspaceRoot: '/x/a"b\\c', writableRoots: [] }, sessionTemp: '/t/"q' });
    assert.ok(profile.includes('(subpath "/t/\\"q")'));
    const profileRw = buildSeatbeltProfile({ policy: { mode: "workspace-write", network: true, workspaceRoot: '/x/a"b.c', writableRoots: [] }, sessionTemp: "/t" });
    assert.ok(profileRw.includes('(regex #"^/x/a.b\\.c/(.+/)?('), profileRw);
  });
});

import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBwrapArgs } from "./bwrap-args";
import { ScanCache, scanProtected } from "./protected-scan";
import { describeSweep, shellQuote, sweep } from "./quarantine";
import { acquireStubs, releaseStubs } from "./stubs";

describe("sandbox: protected names at any depth, and what a command made of them", () => {
  let root: string;
  let quarantine: string;
  const at = (path: string) => join(root, path);
  const found = () => scanProtected([root]).entries.map((e) => e.path.slice(root.length + 1)).sort();

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "protected-scan-"));
    quarantine = mkdtempSync(join(tmpdir(), "quarantine-"));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(quarantine, { recursive: true, force: true });
  });

  it("finds them at any depth (folder, gitfile, symlink), without entering them, node_modules' own entries only, symlinked folders not followed", () => {
    mkdirSync(at("a/b/c/.git/hooks"), { recursive: true });
    mkdirSync(at("a/.vscode"), { recursive: true });
    mkdirSync(at("w"));
    writeFileSync(at("w/.git"), "gitdir: ../gd\n");
    mkdirSync(at("cfg"));
    symlinkSync("cfg", at("a/b/.pi"));
    mkdirSync(at("node_modules/pkg/.github"), { recursive: true });
    mkdirSync(at("node_modules/.git"), { recursive: true });
    mkdirSync(at("elsewhere/deep/.git"), { recursive: true });
    symlinkSync("elsewhere", at("link-to-dir"));
    assert.deepEqual(found(), ["a/.vscode", "a/b/.pi", "a/b/c/.git", "node_modules/.git", "elsewhere/deep/.git", "w/.git"].sort());
  });

  it("with a cache, reads only folders that changed, and sees a change whose folder's time was set back (utimes cannot set the change time)", async function () {
    this.timeout(10_000);
    mkdirSync(at("a/b/c"), { recursive: true });
    mkdirSync(at("a/x/.git"), { recursive: true });
    await new Promise((r) => setTimeout(r, 2_100)); // a list is taken again only 2 s after its folder's last change
    const cache = new ScanCache();
    assert.deepEqual(scanProtected([root], undefined, undefined, cache).entries.map((e) => e.path), [at("a/x/.git")]);
    assert.equal(scanProtected([root], undefined, undefined, cache).entries.length, 1, "the same from the cache");
    mkdirSync(at("a/b/c/.git"));
    execFileSync("touch", ["-d", "2000-01-01", at("a/b/c")]);
    assert.deepEqual(scanProtected([root], undefined, undefined, cache).entries.map((e) => e.path).sort(), [at("a/b/c/.git"), at("a/x/.git")]);
  });

  it("says when it stopped at its caps", () => {
    for (let i = 0; i < 5; i++) mkdirSync(at(`d${i}`));
    assert.equal(scanProtected([root], () => false, { maxDirs: 3, maxDepth: 64 }).complete, false);
    assert.equal(scanProtected([root], () => false, { maxDirs: 100, maxDepth: 64 }).complete, true);
  });

  it("moves aside what appeared or changed, keeps what only moved with its parent, puts a replaced symlink back", () => {
    mkdirSync(at("lib/.git"), { recursive: true });
    mkdirSync(at("cfg"));
    symlinkSync("cfg", at(".vscode"));
    const before = scanProtected([root]);
    renameSync(at("lib"), at("lib-old"));
    mkdirSync(at("new/.git"), { recursive: true });
    writeFileSync(at("new/.git/config"), "[core]\n\tfsmonitor = evil\n");
    rmSync(at(".vscode"));
    mkdirSync(at(".vscode"));
    writeFileSync(at(".vscode/tasks.json"), "{}");
    const report = sweep(before, scanProtected([root]), quarantine);
    assert.deepEqual(report.moved.map((m) => m.from).sort(), [at(".vscode"), at("new/.git")].sort());
    assert.deepEqual(report.relinked, [at(".vscode")]);
    assert.equal(readlinkSync(at(".vscode")), "cfg");
    assert.ok(existsSync(at("lib-old/.git")), "moved with its parent: the same folder, left alone");
    assert.equal(existsSync(at("new/.git")), false);
    const moved = report.moved.find((m) => m.from === at("new/.git"));
    assert.ok(moved && readFileSync(join(moved.to, "config"), "utf8").includes("fsmonitor"), "kept, under a name nothing runs");
    assert.ok(!moved.to.endsWith(".git"));
    const record = JSON.parse(readFileSync(join(moved.to, "..", "moved.json"), "utf8")) as unknown;
    assert.deepEqual(record, report.moved);
  });

  it("a symlink turned to point elsewhere is a new thing; so is one moved to another folder (its relative target means something else there)", () => {
    mkdirSync(at("cfg"));
    mkdirSync(at("sub"));
    symlinkSync("../cfg", at("sub/.vscode"));
    const before = scanProtected([root]);
    rmSync(at("sub/.vscode"));
    symlinkSync("/etc", at("sub/.vscode"));
    const report = sweep(before, scanProtected([root]), quarantine);
    assert.deepEqual(report.moved.map((m) => m.from), [at("sub/.vscode")]);
    assert.equal(readlinkSync(at("sub/.vscode")), "../cfg");
  });

  it("moves aside a name whose folder the command made read-only (chmod 555 sub), as a user without root's override", function () {
    this.timeout(30_000);
    // As root permissions do not apply: the sweep runs as nobody there, over a tree that is nobody's.
    const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"] : [];
    if (asUser.length > 0) for (const dir of [root, quarantine]) chownSync(dir, 65534, 65534);
    const script = join(root, "..", `${root.split("/").pop()}-sweep.ts`);
    writeFileSync(script, [
      `import { chmodSync, mkdirSync } from "node:fs";`,
      `import { scanProtected } from ${JSON.stringify(join(__dirname, "protected-scan"))};`,
      `import { sweep } from ${JSON.stringify(join(__dirname, "quarantine"))};`,
      `const before = scanProtected([${JSON.stringify(root)}]);`,
      `mkdirSync(${JSON.stringify(at("locked/.git"))}, { recursive: true });`,
      `chmodSync(${JSON.stringify(at("locked"))}, 0o555);`,
      `console.log(JSON.stringify(sweep(before, scanProtected([${JSON.stringify(root)}]), ${JSON.stringify(quarantine)})));`,
    ].join("\n"));
    chmodSync(script, 0o644);
    const tsx = join(__dirname, "../../../node_modules/tsx/dist/cli.mjs");
    const [file, ...args] = [...asUser, process.execPath, tsx, script];
    const out = execFileSync(file, args, { encoding: "utf8", env: { ...process.env, HOME: tmpdir() } });
    rmSync(script);
    const report = JSON.parse(out.trim().split("\n").pop() ?? "{}") as { moved: unknown[]; failed: unknown[] };
    assert.deepEqual(report.failed, []);
    assert.equal(report.moved.length, 1);
    assert.equal(existsSync(at("locked/.git")), false);
  });

  it("a symlinked name whose folder was removed whole is not put back, and nothing is said to have failed", () => {
    mkdirSync(at("sub"));
    symlinkSync("../cfg", at("sub/.vscode"));
    const before = scanProtected([root]);
    rmSync(at("sub"), { recursive: true });
    const report = sweep(before, scanProtected([root]), quarantine);
    assert.deepEqual(report, { moved: [], relinked: [], failed: [] });
  });

  it("what the user put back from the quarantine is left alone by a later sweep (a command still running)", () => {
    const before = scanProtected([root]);
    mkdirSync(at("sub/.git"), { recursive: true });
    const movedAway = new Set<string>();
    const [moved] = sweep(before, scanProtected([root]), quarantine, movedAway).moved;
    renameSync(moved.to, moved.from);
    assert.deepEqual(sweep(before, scanProtected([root]), quarantine, movedAway).moved, []);
    assert.ok(existsSync(at("sub/.git")));
  });

  it("a stub another sandbox holds (in its ledger) but has not mounted yet: what was put into it moves out, the folder stays", () => {
    const before = scanProtected([root]);
    mkdirSync(at("pkg/.git/refs"), { recursive: true });
    writeFileSync(at("pkg/.git/config"), '[core]\n\tfsmonitor = "touch /tmp/x"\n');
    acquireStubs([at("pkg/.git")]); // the holder (here this process) wrote its ledger before bwrap made the folder
    try {
      const report = sweep(before, scanProtected([root]), quarantine);
      assert.equal(report.moved.length, 1);
      assert.ok(existsSync(at("pkg/.git")), "the folder stays: moving it would unmount it in that sandbox");
      assert.deepEqual(readdirSync(at("pkg/.git")), [], "its contents moved out");
      assert.ok(existsSync(join(report.moved[0]!.to, "config")));
    } finally {
      releaseStubs([at("pkg/.git")]);
    }
  });

  it("nothing made, nothing said", () => {
    mkdirSync(at("lib/.git"), { recursive: true });
    const before = scanProtected([root]);
    writeFileSync(at("lib/file.txt"), "x");
    const report = sweep(before, scanProtected([root]), quarantine);
    assert.equal(describeSweep(report), undefined);
  });

  it("quotes a path for the shell so that a newline or a quote in a name cannot fake a line of the message", () => {
    assert.equal(shellQuote("/w/a b/.git"), "'/w/a b/.git'");
    assert.equal(shellQuote("/w/x\n  moved '/etc'/.git"), "$'/w/x\\x0a  moved \\'/etc\\'/.git'");
    const quoted = shellQuote("/w/it's\\here");
    assert.equal(execFileSync("/bin/bash", ["-c", `printf %s ${quoted}`], { encoding: "utf8" }), "/w/it's\\here");
  });

  it("mounts the nested ones read-only (and a nested gitfile's git dir, and a nested symlink's target when it lies in the workspace)", () => {
    const kinds: Record<string, "dir" | "file"> = { "/w": "dir", "/w/lib/.git": "dir", "/w/wt/.git": "file", "/w/gd": "dir", "/w/sub/.vscode": "dir", "/w/cfg": "dir", "/w/out/.pi": "dir", "/etc": "dir" };
    const real: Record<string, string> = { "/w/sub/.vscode": "/w/cfg", "/w/out/.pi": "/etc" };
    const nested = [
      { path: "/w/lib/.git", kind: "dir" as const, dev: 1, ino: 2 },
      { path: "/w/wt/.git", kind: "file" as const, dev: 1, ino: 3 },
      { path: "/w/sub/.vscode", kind: "symlink" as const, dev: 1, ino: 4, target: "../cfg" },
      { path: "/w/out/.pi", kind: "symlink" as const, dev: 1, ino: 5, target: "/etc" },
    ];
    const { args } = buildBwrapArgs(
      {
        policy: { mode: "workspace-write", network: false, workspaceRoot: "/w", writableRoots: [] },
        cwd: "/w", sessionTemp: "/tmp/s", nested,
        pathKind: (p) => kinds[p] ?? "missing", realPath: (p) => real[p] ?? p, gitDirOf: (p) => (p === "/w/wt/.git" ? "/w/gd" : undefined),
      },
      ["true"],
    );
    const line = args.join(" ");
    for (const path of ["/w/lib/.git", "/w/wt/.git", "/w/gd", "/w/cfg"]) assert.ok(line.includes(`--ro-bind ${path} ${path}`), path);
    assert.ok(!line.includes("--ro-bind /etc /etc"), "a target outside the roots is read-only already");
  });
});

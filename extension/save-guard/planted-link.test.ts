import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { moveLinkAside, plantedLinkOnWay, putLinkBack, type SaveScope } from "./planted-link";

describe("save guard: a link a command made on a document's way out of the sandbox's places (planted-link.ts)", () => {
  let dir: string;
  let ws: string;
  let outside: string;
  let scope: SaveScope;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "planted-link-")));
    ws = join(dir, "ws");
    outside = join(dir, "home");
    mkdirSync(join(ws, "src"), { recursive: true });
    mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, ".bashrc"), "# the user's\n");
    writeFileSync(join(ws, "src", "real.txt"), "text\n");
    scope = { folders: [ws], writable: [ws], since: Date.now() - 1_000, offLimits: (real) => (real.includes(`${ws}/.git`) ? ".git is protected" : undefined) };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("finds the document itself made a link to a file outside the workspace, and a folder on its way made one", () => {
    symlinkSync(join(outside, ".bashrc"), join(ws, "notes.txt"));
    assert.deepEqual(plantedLinkOnWay(join(ws, "notes.txt"), scope), { link: join(ws, "notes.txt"), leadsTo: join(outside, ".bashrc") });
    symlinkSync(outside, join(ws, "conf"));
    assert.deepEqual(plantedLinkOnWay(join(ws, "conf", ".bashrc"), scope), { link: join(ws, "conf"), leadsTo: join(outside, ".bashrc") });
    // Dangling: the save would make the file there.
    symlinkSync(join(outside, ".profile"), join(ws, "new.txt"));
    assert.equal(plantedLinkOnWay(join(ws, "new.txt"), scope)?.leadsTo, join(outside, ".profile"));
  });

  it("finds a link into a place commands may not write although it is in the workspace (a git hook), through a relative target", () => {
    symlinkSync("../.git/hooks/pre-commit", join(ws, "src", "hook.sh"));
    assert.equal(plantedLinkOnWay(join(ws, "src", "hook.sh"), scope)?.link, join(ws, "src", "hook.sh"));
  });

  it("leaves alone a link that stays where commands may write, a plain file, and a path outside the workspace folders", () => {
    symlinkSync("real.txt", join(ws, "src", "alias.txt"));
    assert.equal(plantedLinkOnWay(join(ws, "src", "alias.txt"), scope), undefined);
    assert.equal(plantedLinkOnWay(join(ws, "src", "real.txt"), scope), undefined);
    assert.equal(plantedLinkOnWay(join(outside, ".bashrc"), scope), undefined);
    assert.equal(plantedLinkOnWay(join(ws, "missing", "file.txt"), scope), undefined);
  });

  it("finds a link into a workspace folder the agents do not run in (a multi-root workspace's second folder: their sandbox writes only theirs)", () => {
    const other = join(dir, "other");
    mkdirSync(other);
    writeFileSync(join(other, "package.json"), "{}\n");
    symlinkSync(join(other, "package.json"), join(ws, "notes.txt"));
    const multiRoot: SaveScope = { ...scope, folders: [ws, other], writable: [ws] };
    assert.deepEqual(plantedLinkOnWay(join(ws, "notes.txt"), multiRoot), { link: join(ws, "notes.txt"), leadsTo: join(other, "package.json") });
    symlinkSync("real.txt", join(ws, "src", "alias.txt"));
    assert.equal(plantedLinkOnWay(join(ws, "src", "alias.txt"), multiRoot), undefined, "within the agent's folder: left alone");
  });

  it("leaves alone the user's own link made before the first sandboxed agent (a dotfiles link)", () => {
    symlinkSync(outside, join(ws, "dotfiles"));
    const later: SaveScope = { ...scope, since: lstatSync(join(ws, "dotfiles")).ctimeMs + 1 };
    assert.equal(plantedLinkOnWay(join(ws, "dotfiles", ".bashrc"), later), undefined);
  });

  it("finds an old link of the user's moved into the document's place with its folder (its own time unchanged): the path leads elsewhere than when first seen", () => {
    mkdirSync(join(ws, "vendor"));
    symlinkSync(join(outside, ".bashrc"), join(ws, "vendor", "config.sh"));
    writeFileSync(join(ws, "src", "config.sh"), "echo mine\n");
    const old: SaveScope = { ...scope, since: lstatSync(join(ws, "vendor", "config.sh")).ctimeMs + 1 };
    const doc = join(ws, "src", "config.sh");
    const wasReal = realpathSync(doc);
    renameSync(join(ws, "src"), join(ws, "src.bak"));
    renameSync(join(ws, "vendor"), join(ws, "src"));
    assert.equal(plantedLinkOnWay(doc, old), undefined, "by its time alone it is the user's");
    assert.deepEqual(plantedLinkOnWay(doc, old, { real: wasReal, atOpen: true }), { link: doc, leadsTo: join(outside, ".bashrc") });
    assert.equal(plantedLinkOnWay(doc, old, { real: join(outside, ".bashrc"), atOpen: true }), undefined, "opened through the link: the user's way of working");
  });

  it("takes a new link for a command's even when a document already open (restored from an earlier window) was first seen through it, but not one the user opened it through", () => {
    const doc = join(ws, "notes.txt");
    symlinkSync(join(outside, ".bashrc"), doc);
    assert.equal(plantedLinkOnWay(doc, scope, { real: join(outside, ".bashrc"), atOpen: false })?.link, doc);
    assert.equal(plantedLinkOnWay(doc, scope, { real: join(outside, ".bashrc"), atOpen: true }), undefined);
  });

  it("looks at links in an agent's own folders too, and takes a link from the workspace into them for one leading out", () => {
    const agentDir = join(dir, "agent");
    mkdirSync(agentDir);
    writeFileSync(join(agentDir, "settings.json"), "{}\n");
    const withAgent: SaveScope = { ...scope, folders: [ws, agentDir] };
    symlinkSync(join(agentDir, "settings.json"), join(ws, "conf.json"));
    assert.equal(plantedLinkOnWay(join(ws, "conf.json"), withAgent)?.link, join(ws, "conf.json"), "into the agent's folder: not where a write may land");
    symlinkSync(join(outside, ".bashrc"), join(agentDir, "notes.md"));
    assert.equal(plantedLinkOnWay(join(agentDir, "notes.md"), withAgent)?.link, join(agentDir, "notes.md"), "made in the agent's folder");
  });

  it("moves a link aside with a record of where it came from; the path is then free for a plain file", () => {
    const link = join(ws, "notes.txt");
    symlinkSync(join(outside, ".bashrc"), link);
    const to = moveLinkAside(link, join(dir, "quarantine"));
    assert.ok(to, "moved into the quarantine");
    assert.equal(existsSync(link), false);
    assert.equal(readlinkSync(to), join(outside, ".bashrc"));
    assert.deepEqual(JSON.parse(readFileSync(join(to, "..", "moved.json"), "utf8")), [{ from: link, to }]);
    assert.equal(readFileSync(join(outside, ".bashrc"), "utf8"), "# the user's\n", "the target untouched");
  });
});

describe("save guard: the link is taken off the path whatever a command did around it (planted-link.ts moveLinkAside)", () => {
  let dir: string;
  let ws: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "planted-link-move-")));
    ws = join(dir, "ws");
    mkdirSync(join(ws, "src"), { recursive: true });
    writeFileSync(join(dir, ".bashrc"), "# the user's\n");
  });
  afterEach(() => {
    if (existsSync(join(ws, "src"))) chmodSync(join(ws, "src"), 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  it("when the quarantine folder is not one (a file or a dangling link a whole agent made in its agent dir, which it may write): the link is removed in place", () => {
    const link = join(ws, "notes.txt");
    symlinkSync(join(dir, ".bashrc"), link);
    const quarantine = join(dir, "quarantine");
    writeFileSync(quarantine, "not a folder\n");
    moveLinkAside(link, quarantine);
    assert.equal(lstatSync(link, { throwIfNoEntry: false }), undefined, "the link is off the path");
    assert.equal(readFileSync(join(dir, ".bashrc"), "utf8"), "# the user's\n");
    rmSync(quarantine);
    symlinkSync(join(dir, "elsewhere"), quarantine);
    symlinkSync(join(dir, ".bashrc"), link);
    moveLinkAside(link, quarantine);
    assert.equal(lstatSync(link, { throwIfNoEntry: false }), undefined, "the link is off the path");
    assert.equal(existsSync(join(dir, "elsewhere")), false, "nothing made where the command's link pointed");
  });

  it("when the command made the folder holding the link read-only (chmod 555), as a user without root's override", function () {
    this.timeout(30_000);
    // As root permissions do not apply: the move runs as nobody there, over a tree that is nobody's.
    const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"] : [];
    const link = join(ws, "src", "notes.txt");
    symlinkSync(join(dir, ".bashrc"), link);
    const quarantine = join(dir, "quarantine");
    mkdirSync(quarantine);
    if (asUser.length > 0) for (const path of [dir, ws, join(ws, "src"), quarantine]) chownSync(path, 65534, 65534);
    chmodSync(join(ws, "src"), 0o555);
    const script = join(dir, "move.ts");
    writeFileSync(script, [`import { moveLinkAside } from ${JSON.stringify(join(__dirname, "planted-link"))};`, `moveLinkAside(${JSON.stringify(link)}, ${JSON.stringify(quarantine)});`].join("\n"));
    chmodSync(script, 0o644);
    const tsx = join(__dirname, "../../node_modules/tsx/dist/cli.mjs");
    const [file, ...args] = [...asUser, process.execPath, tsx, script];
    const run = spawnSync(file, args, { encoding: "utf8", env: { ...process.env, HOME: dir } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(lstatSync(link, { throwIfNoEntry: false }), undefined, "the link is off the path");
  });

  it("puts a link moved aside back at the user's word, only as it was moved and where nothing took its place", () => {
    const doc = join(ws, "notes.txt");
    symlinkSync(join(dir, ".bashrc"), doc);
    const to = moveLinkAside(doc, join(dir, "quarantine"))!;
    writeFileSync(doc, "made again\n");
    assert.throws(() => putLinkBack(doc, to, join(dir, ".bashrc")), /exists again/);
    rmSync(doc);
    rmSync(to);
    symlinkSync(join(dir, ".ssh"), to); // swapped in the quarantine
    assert.throws(() => putLinkBack(doc, to, join(dir, ".bashrc")), /no longer the link moved aside/);
    rmSync(to);
    symlinkSync(join(dir, ".bashrc"), to);
    putLinkBack(doc, to, join(dir, ".bashrc"));
    assert.equal(readlinkSync(doc), join(dir, ".bashrc"));
  });
});

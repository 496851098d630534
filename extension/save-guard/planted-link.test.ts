import { strict as assert } from "node:assert";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { moveLinkAside, plantedLinkOnWay, type SaveScope } from "./planted-link";

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
    assert.equal(existsSync(link), false);
    assert.equal(readlinkSync(to), join(outside, ".bashrc"));
    assert.deepEqual(JSON.parse(readFileSync(join(to, "..", "moved.json"), "utf8")), [{ from: link, to }]);
    assert.equal(readFileSync(join(outside, ".bashrc"), "utf8"), "# the user's\n", "the target untouched");
  });
});

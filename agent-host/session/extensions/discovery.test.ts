import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { discoverExtensions, type DiscoveryOptions } from "./discovery";

describe("extension discovery (pi 0.87.1's places and order)", () => {
  let root: string;
  let cwd: string;
  let agentDir: string;
  const file = (path: string, text = "export default () => {};") => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  const discover = (options: Partial<DiscoveryOptions> = {}) =>
    discoverExtensions({ cwd, agentDir, projectTrusted: false, noExtensions: false, explicit: [], ...options });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "ext-discovery-"));
    cwd = join(root, "project");
    agentDir = join(root, "agent");
    mkdirSync(cwd, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("finds user extensions: *.ts and *.js files, */index.ts, package.json pi.extensions; nothing deeper", () => {
    const a = file(join(agentDir, "extensions", "a.ts"));
    const b = file(join(agentDir, "extensions", "b.js"));
    file(join(agentDir, "extensions", "notes.md"), "# not an extension");
    const index = file(join(agentDir, "extensions", "folder", "index.ts"));
    file(join(agentDir, "extensions", "folder", "helper.ts"));
    const declared = file(join(agentDir, "extensions", "pkg", "src", "main.ts"));
    file(join(agentDir, "extensions", "pkg", "index.ts"));
    file(join(agentDir, "extensions", "pkg", "package.json"), JSON.stringify({ pi: { extensions: ["./src/main.ts", "./missing.ts"] } }));
    file(join(agentDir, "extensions", "deep", "inner", "index.ts"));
    const found = discover();
    assert.deepEqual(found.map((f) => f.path), [a, b, index, declared]);
    assert.deepEqual(found[0]?.sourceInfo, { path: a, source: "auto", scope: "user", origin: "top-level", baseDir: agentDir });
  });

  it("loads project .pi/extensions only when the project is trusted (--approve), before the user's", () => {
    const project = file(join(cwd, ".pi", "extensions", "p.ts"));
    const user = file(join(agentDir, "extensions", "u.ts"));
    assert.deepEqual(discover().map((f) => f.path), [user]);
    const trusted = discover({ projectTrusted: true });
    assert.deepEqual(trusted.map((f) => f.path), [project, user]);
    assert.deepEqual(trusted[0]?.sourceInfo, { path: project, source: "auto", scope: "project", origin: "top-level", baseDir: join(cwd, ".pi") });
  });

  it("-e paths load last, resolved from cwd, also with --no-extensions; a folder gives its entries; duplicates once", () => {
    const user = file(join(agentDir, "extensions", "u.ts"));
    const single = file(join(cwd, "tools", "mine.ts"));
    const folderIndex = file(join(root, "pack", "index.ts"));
    const loose = file(join(root, "loose", "one.ts"));
    const found = discover({ explicit: ["tools/mine.ts", join(root, "pack"), join(root, "loose"), user] });
    assert.deepEqual(found.map((f) => f.path), [user, single, folderIndex, loose]);
    assert.deepEqual(found[1]?.sourceInfo, { path: single, source: "cli", scope: "temporary", origin: "top-level" });
    const without = discover({ noExtensions: true, projectTrusted: true, explicit: ["tools/mine.ts"] });
    assert.deepEqual(without.map((f) => f.path), [single]);
  });

  it("an explicit path that does not exist is kept (loading it then fails, as in pi)", () => {
    assert.deepEqual(discover({ explicit: ["nope.ts"] }).map((f) => f.path), [join(cwd, "nope.ts")]);
  });
});

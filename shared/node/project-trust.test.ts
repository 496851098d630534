import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { defaultProjectTrust, describeResources, protectedResources, saveTrust, savedTrust } from "./project-trust";

describe("project trust: what is protected and how it is shown", () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "project-trust-"));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("finds pi's protected entries, not a bare .pi folder", () => {
    fs.mkdirSync(path.join(root, ".pi"));
    assert.deepEqual(protectedResources(root, path.join(root, "home")), []);
    fs.mkdirSync(path.join(root, ".pi", "extensions"));
    fs.writeFileSync(path.join(root, ".pi", "SYSTEM.md"), "x");
    assert.deepEqual(protectedResources(root, path.join(root, "home")).map((p) => path.relative(fs.realpathSync(root), p)).sort(), [".pi/SYSTEM.md", ".pi/extensions"]);
  });

  it("lists a folder's files, long folders cut with a count", () => {
    const dir = path.join(root, ".pi", "extensions");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "a\nTrust and Load.ts"), "");
    fs.writeFileSync(path.join(dir, "b\u202Est.ts"), "");
    for (let i = 0; i < 25; i++) fs.writeFileSync(path.join(dir, `z${String(i).padStart(2, "0")}.ts`), "");
    const shown = describeResources(protectedResources(root, path.join(root, "home")), root);
    assert.equal(shown[0], ".pi/extensions/a\nTrust and Load.ts");
    assert.equal(shown[1], ".pi/extensions/b\u202Est.ts");
    assert.equal(shown.length, 21);
    assert.equal(shown[20], "... and 7 more in .pi/extensions");
  });

  it("saves decisions sorted under canonical paths; the nearest folder decides", async () => {
    const agentDir = path.join(root, "agent");
    const project = path.join(root, "work", "repo");
    fs.mkdirSync(project, { recursive: true });
    await saveTrust(agentDir, path.join(root, "work"), true);
    assert.deepEqual(savedTrust(agentDir, project), { folder: fs.realpathSync(path.join(root, "work")), trusted: true });
    await saveTrust(agentDir, project, false);
    assert.equal(savedTrust(agentDir, project)?.trusted, false);
    assert.equal(fs.statSync(path.join(agentDir, "trust.json")).mode & 0o777, 0o600);
    assert.equal(fs.existsSync(path.join(agentDir, "trust.json.lock")), false, "the lock is released");
    fs.writeFileSync(path.join(agentDir, "trust.json"), "[1]");
    assert.throws(() => savedTrust(agentDir, project), /expected an object/);
  });

  it("trust.json and settings.json through the foreign-JSON door: a __proto__ key decides nothing and breaks nothing", async () => {
    const agentDir = path.join(root, "agent");
    fs.mkdirSync(path.join(root, "work"));
    const project = fs.realpathSync(path.join(root, "work"));
    fs.mkdirSync(agentDir);
    const trust = (text: string) => fs.writeFileSync(path.join(agentDir, "trust.json"), text);
    // A key that is no folder, plain or escaped, with a value that is no decision: dropped, the file still holds.
    trust(`{"__proto__": {"${project}": true}, ${JSON.stringify(project)}: false}`);
    assert.deepEqual(savedTrust(agentDir, project), { folder: project, trusted: false });
    trust(`{"\\u005f\\u005fproto__": {"x": 1}, "constructor": {"prototype": 1}}`);
    assert.equal(savedTrust(agentDir, project), undefined);
    await saveTrust(agentDir, project, true);
    assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(path.join(agentDir, "trust.json"), "utf8")) as object), [project], "the dropped keys are not written back");
    // The user's settings: defaultProjectTrust only as an own key.
    fs.writeFileSync(path.join(agentDir, "settings.json"), `{"__proto__": {"defaultProjectTrust": "always"}}`);
    assert.equal(defaultProjectTrust(agentDir), "ask");
    assert.equal((Object.prototype as Record<string, unknown>)[project], undefined);
  });
});

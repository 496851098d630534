import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadSettings } from "./settings";

describe("settings", () => {
  it("a project's settings merge over the user's, except httpProxy, which only the user's can set", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "settings-"));
    const agentDir = path.join(root, "agent");
    const cwd = path.join(root, "project");
    fs.mkdirSync(agentDir);
    fs.mkdirSync(path.join(cwd, ".pi"), { recursive: true });
    fs.writeFileSync(path.join(agentDir, "settings.json"), JSON.stringify({ httpProxy: "http://corp:3128", retry: { maxRetries: 5 } }));
    fs.writeFileSync(path.join(cwd, ".pi", "settings.json"), JSON.stringify({ httpProxy: "http://evil:1", httpIdleTimeoutMs: 1000, retry: { enabled: false } }));
    try {
      const { settings, problems } = loadSettings(agentDir, cwd, true);
      assert.deepEqual(problems, [`${path.join(cwd, ".pi", "settings.json")}: httpProxy ignored (only the user's settings.json may set it)`]);
      assert.equal(settings.httpProxy, "http://corp:3128");
      assert.equal(settings.httpIdleTimeoutMs, 1000);
      assert.deepEqual({ ...settings.retry }, { enabled: false, maxRetries: 5, baseDelayMs: 2000, maxAgentDelayMs: 60000 });
      assert.equal(loadSettings(path.join(root, "none"), cwd, false).settings.httpIdleTimeoutMs, 300000);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("settings: foreign JSON cannot steer them (issue #30, hole 5)", () => {
  let root: string;
  let agentDir: string;
  let cwd: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "settings-"));
    agentDir = path.join(root, "agent");
    cwd = path.join(root, "project");
    fs.mkdirSync(agentDir);
    fs.mkdirSync(path.join(cwd, ".pi"), { recursive: true });
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    for (const key of ["httpProxy", "enabled", "maxRetries", "polluted"]) assert.equal((Object.prototype as Record<string, unknown>)[key], undefined, `Object.prototype.${key}`);
  });
  const project = (text: string) => {
    fs.writeFileSync(path.join(cwd, ".pi", "settings.json"), text);
    return loadSettings(agentDir, cwd, true);
  };

  const proxies = [
    `{"__proto__": {"httpProxy": "http://evil:1"}}`,
    `{"\\u005f\\u005fproto__": {"httpProxy": "http://evil:1"}}`,
    `{"__proto__": {}, "__proto__": {"httpProxy": "http://evil:1"}}`,
    `{"constructor": {"prototype": {"httpProxy": "http://evil:1"}}}`,
    `{"prototype": {"httpProxy": "http://evil:1"}}`,
    `{"httpProxy": "http://evil:1", "httpProxy": "http://evil:2"}`,
  ];
  for (const text of proxies) {
    it(`${text}: no httpProxy, by own key or inherited, and a problem says what was dropped`, () => {
      const { settings, problems } = project(text);
      assert.equal(settings.httpProxy, undefined);
      assert.equal("httpProxy" in settings, false);
      assert.ok(problems.length > 0, "the dropped key is reported");
    });
  }

  it("a nested __proto__ cannot turn retries off or raise them; wrong types are dropped with a notice, the rest applies", () => {
    const { settings, problems } = project(`{"retry": {"__proto__": {"enabled": false, "maxRetries": 1000}}, "compaction": {"enabled": "no", "reserveTokens": 1}, "thme": "dark", "theme": "dark"}`);
    assert.equal(settings.retry.enabled, true);
    assert.equal(settings.retry.maxRetries, 3);
    assert.equal(settings.compaction.enabled, true);
    assert.equal(settings.compaction.reserveTokens, 1);
    const file = path.join(cwd, ".pi", "settings.json");
    assert.deepEqual(problems.sort(), [
      `${file}: $.compaction.enabled: must be boolean; dropped`,
      `${file}: $.retry.__proto__: key dropped (it could reach a prototype)`,
      `${file}: $.thme: unknown key dropped`,
    ]);
  });

  it("the merged settings have no prototype to look keys up in", () => {
    const { settings } = project(`{"retry": {"enabled": false}}`);
    assert.equal(Object.getPrototypeOf(settings), null);
    assert.equal(Object.getPrototypeOf(settings.retry), null);
    assert.equal((settings as unknown as Record<string, unknown>).constructor, undefined);
  });

  it("a 100,000-deep value and 100,000 wrongly typed ones neither overflow the stack nor stall start-up", () => {
    const depth = 100_000;
    const started = Date.now();
    const { settings, problems } = project(`{"theme": ${'{"a":'.repeat(depth)}1${"}".repeat(depth)}, "enabledModels": [${Array.from({ length: 100_000 }, (_, i) => (i % 2 ? `"m${i}"` : "1")).join(",")}], "retry": {"enabled": false}}`);
    assert.equal(settings.retry.enabled, false);
    assert.equal(settings.enabledModels?.length, 50_000);
    assert.equal(problems.length, 51, "50 notices, then one line counting the rest");
    assert.match(problems.at(-1)!, /and 49950 more dropped$/);
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });
});


import { strict as assert } from "node:assert";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFindTool, type FindToolDetails } from "./find";
import { gone, run, tempDir, textOf, until, writeTree } from "./test-support";

describe("tools/find", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    writeTree(dir, {
      ".gitignore": "dist/\n*.log\n",
      "dist/bundle.js": "",
      "debug.log": "",
      "package.json": "{}",
      "src/index.ts": "",
      "src/util/strings.ts": "",
      "src/util/strings.spec.ts": "",
      "test/fixtures/data.json": "{}",
      ".github/workflows/ci.yml": "",
    });
    mkdirSync(join(dir, "empty-dir"));
    symlinkSync(join(dir, "src/index.ts"), join(dir, "link.ts"));
  });
  afterEach(() => cleanup());
  const find = () => createFindTool(dir, { fdPath: null });
  const list = async (params: Parameters<ReturnType<typeof find>["execute"]>[1]) => textOf((await run(find(), params)).result);

  it("matches file names at any depth, honouring .gitignore even outside a git repository", async () => {
    assert.equal(await list({ pattern: "*.ts" }), "link.ts\nsrc/index.ts\nsrc/util/strings.spec.ts\nsrc/util/strings.ts");
    assert.equal(await list({ pattern: "*.log" }), "No files found matching pattern");
    assert.equal(await list({ pattern: "*.js" }), "No files found matching pattern");
  });

  it("matches patterns with a slash against the end of the path, ** across directories", async () => {
    assert.equal(await list({ pattern: "src/**/*.spec.ts" }), "src/util/strings.spec.ts");
    assert.equal(await list({ pattern: "util/*.ts" }), "src/util/strings.spec.ts\nsrc/util/strings.ts");
    assert.equal(await list({ pattern: "**/*.json" }), "package.json\ntest/fixtures/data.json");
    assert.equal(await list({ pattern: "*.{yml,json}" }), ".github/workflows/ci.yml\npackage.json\ntest/fixtures/data.json");
  });

  it("lists directories with a trailing slash, and searches below a path", async () => {
    assert.equal(await list({ pattern: "*util*" }), "src/util/");
    assert.equal(await list({ pattern: "empty*" }), "empty-dir/");
    assert.equal(await list({ pattern: "*.ts", path: "src/util" }), "strings.spec.ts\nstrings.ts");
  });

  it("stops at the limit and says so", async () => {
    const { result } = await run(find(), { pattern: "*", limit: 3 });
    assert.equal(textOf(result), ".github/\n.github/workflows/\n.github/workflows/ci.yml\n\n[3 results limit reached. Use limit=6 for more, or refine pattern]");
    assert.deepEqual(result.details as FindToolDetails, { resultLimitReached: 3 });
  });

  it("fails for a missing path or a file", async () => {
    const missing = (await run(find(), { pattern: "*", path: "nope" })).result;
    assert.equal(missing.isError, true);
    assert.equal(textOf(missing), `Path not found: ${join(dir, "nope")}`);
    assert.equal(textOf((await run(find(), { pattern: "*", path: "package.json" })).result), `Not a directory: ${join(dir, "package.json")}`);
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    assert.equal(textOf((await run(find(), { pattern: "*" }, controller.signal)).result), "Operation aborted");
  });

  // The walk matched the model's glob with a backtracking regex (minimatch's) on the host's
  // thread: such a pattern hung the session (no command, no Stop answered).
  it("ends with an error when the model's glob backtracks for ever, while the host's thread keeps answering", async () => {
    writeFileSync(join(dir, `${"a".repeat(60)}.txt`), "");
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 10);
    try {
      const started = performance.now();
      const { result } = await run(createFindTool(dir, { fdPath: null, searchDeadlineMs: 400 }), { pattern: `${"*a".repeat(12)}*b` });
      assert.ok(result.isError && textOf(result).includes("backtracks"), textOf(result));
      assert.ok(performance.now() - started < 3000, "ended at the deadline");
    } finally {
      clearInterval(timer);
    }
    const gaps = ticks.slice(1).map((t, i) => t - ticks[i]!);
    assert.ok(Math.max(...gaps) < 300, `the thread answered throughout (longest gap ${Math.max(...gaps).toFixed(0)} ms)`);
  });

  it("stops a walk in its worker when aborted", async () => {
    writeFileSync(join(dir, `${"a".repeat(60)}.txt`), "");
    const controller = new AbortController();
    const pending = run(find(), { pattern: `${"*a".repeat(12)}*b` }, controller.signal);
    setTimeout(() => controller.abort(), 100);
    assert.equal(textOf((await pending).result), "Operation aborted");
  });

  it("runs fd with pi's arguments when there is one, relativizing its output", async () => {
    const fake = join(dir, "fake-fd");
    const argsFile = join(dir, "fd-args");
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > ${argsFile}\necho "${dir}/src/util/"\necho "${dir}/src/util/strings.ts"\n`);
    chmodSync(fake, 0o755);
    const tool = createFindTool(dir, { fdPath: fake });
    const { result } = await run(tool, { pattern: "util/*.ts", limit: 50 });
    assert.equal(textOf(result), "src/util/\nsrc/util/strings.ts");
    const args = readFileSync(argsFile, "utf-8").trim().split("\n");
    assert.deepEqual(args, ["--glob", "--color=never", "--hidden", "--no-require-git", "--max-results", "50", "--full-path", "--", "**/util/*.ts", dir]);

    mkdirSync(join(dir, ".git"));
    await run(tool, { pattern: "*.ts" });
    assert.deepEqual(readFileSync(argsFile, "utf-8").trim().split("\n"), ["--glob", "--color=never", "--hidden", "--max-results", "1000", "--", "*.ts", dir]);
  });

  it("finds fd on the search path and reports its failure", async () => {
    const bin = join(dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "fdfind"), "#!/bin/sh\necho 'fd: broken' >&2\nexit 1\n");
    chmodSync(join(bin, "fdfind"), 0o755);
    const { result } = await run(createFindTool(dir, { searchPath: bin }), { pattern: "*" });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), "fd: broken");
  });

  it("kills a running fd when aborted", async () => {
    const pidFile = join(dir, "fd.pid");
    writeFileSync(join(dir, "slow-fd"), `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 30\n`);
    chmodSync(join(dir, "slow-fd"), 0o755);
    const controller = new AbortController();
    const pending = run(createFindTool(dir, { fdPath: join(dir, "slow-fd") }), { pattern: "*" }, controller.signal);
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf-8").trim() !== "");
    const pid = Number(readFileSync(pidFile, "utf-8").trim());
    controller.abort();
    assert.equal(textOf((await pending).result), "Operation aborted");
    await until(() => gone(pid), 3000);
  });
});

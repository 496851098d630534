import { strict as assert } from "node:assert";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createGrepTool, type GrepToolDetails, type GrepToolOptions } from "./grep";
import { localWalkIo, type WalkIo } from "./io";
import { findExecutable } from "./process";
import { gone, run, tempDir, textOf, until, writeTree } from "./test-support";

const FIXTURE = {
  ".gitignore": "ignored.txt\nbuild/\n",
  "ignored.txt": "needle ignored\n",
  "build/out.js": "needle build\n",
  "src/a.ts": "const needle = 1;\nNEEDLE upper\nother\n",
  "src/b.spec.ts": "needle in spec\n",
  ".hidden/h.txt": "needle hidden\n",
  "bin.dat": Buffer.from("needle\0binary\n"),
  "notes.md": "a.b literal\naxb\n",
  "ctx.txt": "l1\nl2\nmatch here\nl4\nl5\n",
  "long.txt": `needle ${"x".repeat(600)}\n`,
};

const sorted = (text: string) => text.split("\n").sort();

/** Counts file reads, to tell which backend searched. */
function countingIo(): WalkIo & { reads: number } {
  const io = { ...localWalkIo, reads: 0 };
  io.readFile = (p) => (io.reads++, localWalkIo.readFile(p));
  return io;
}

const backends: [string, () => GrepToolOptions][] = [
  ["ripgrep found on PATH", () => ({})],
  ["ripgrep at rgPath", () => ({ rgPath: "/usr/bin/rg" })],
  ["Node search (rgPath: null)", () => ({ rgPath: null })],
  ["Node search (a PATH without rg)", () => ({ searchPath: "/nonexistent-bin-dir" })],
];

describe("tools/grep", () => {
  it("finds ripgrep on PATH here (the rg backend is really exercised)", async () => {
    assert.ok(await findExecutable("rg"));
    assert.equal(await findExecutable("rg", "/nonexistent-bin-dir"), undefined);
  });

  for (const [name, options] of backends) {
    describe(name, () => {
      let dir: string;
      let cleanup: () => void;
      beforeEach(() => {
        ({ dir, cleanup } = tempDir());
        mkdirSync(join(dir, ".git"));
        writeTree(dir, FIXTURE);
      });
      afterEach(() => cleanup());
      const grep = (extra: GrepToolOptions = {}) => createGrepTool(dir, { ...options(), ...extra });

      it("searches with the backend it was given", async () => {
        const io = countingIo();
        await run(grep({ io }), { pattern: "needle" });
        assert.equal(io.reads > 0, name.startsWith("Node"), `file reads: ${io.reads}`);
      });

      it("lists matches as path:line: text, with dotfiles, without ignored or binary files", async () => {
        const { result } = await run(grep(), { pattern: "needle" });
        const [body, notice] = textOf(result).split("\n\n");
        assert.deepEqual(sorted(body), [
          ".hidden/h.txt:1: needle hidden",
          `long.txt:1: needle ${"x".repeat(493)}... [truncated]`,
          "src/a.ts:1: const needle = 1;",
          "src/b.spec.ts:1: needle in spec",
        ]);
        assert.equal(notice, "[Some lines truncated to 500 chars. Use read tool to see full lines]");
        assert.deepEqual(result.details, { linesTruncated: true });
      });

      it("ignores case, treats the pattern literally and filters by glob on request", async () => {
        assert.equal(textOf((await run(grep(), { pattern: "needle", path: "src/a.ts", ignoreCase: true })).result), "a.ts:1: const needle = 1;\na.ts:2: NEEDLE upper");
        assert.equal(textOf((await run(grep(), { pattern: "a.b", path: "notes.md" })).result), "notes.md:1: a.b literal\nnotes.md:2: axb");
        assert.equal(textOf((await run(grep(), { pattern: "a.b", path: "notes.md", literal: true })).result), "notes.md:1: a.b literal");
        assert.equal(textOf((await run(grep(), { pattern: "needle", glob: "*.spec.ts" })).result), "src/b.spec.ts:1: needle in spec");
        assert.deepEqual(sorted(textOf((await run(grep(), { pattern: "needle", glob: "src/*.ts" })).result)), ["src/a.ts:1: const needle = 1;", "src/b.spec.ts:1: needle in spec"]);
        assert.deepEqual(sorted(textOf((await run(grep(), { pattern: "needle", glob: "**/*.{ts,txt}", path: "src" })).result)), ["a.ts:1: const needle = 1;", "b.spec.ts:1: needle in spec"]);
      });

      it("shows context lines as path-line- text", async () => {
        const { result } = await run(grep(), { pattern: "match", context: 1 });
        assert.equal(textOf(result), "ctx.txt-2- l2\nctx.txt:3: match here\nctx.txt-4- l4");
      });

      it("stops at the match limit and says so", async () => {
        const { result } = await run(grep(), { pattern: "^l", path: "ctx.txt", limit: 2 });
        assert.equal(textOf(result), "ctx.txt:1: l1\nctx.txt:2: l2\n\n[2 matches limit reached. Use limit=4 for more, or refine pattern]");
        assert.deepEqual(result.details as GrepToolDetails, { matchLimitReached: 2 });
      });

      it("cuts the output at 50KB", async () => {
        writeTree(dir, { "many.txt": Array.from({ length: 300 }, (_, i) => `hit ${i} ${"y".repeat(300)}`).join("\n") });
        const { result } = await run(grep(), { pattern: "^hit", path: "many.txt", limit: 1000 });
        assert.match(textOf(result), /\n\n\[50\.0KB limit reached\]$/);
        assert.equal((result.details as GrepToolDetails).truncation?.truncatedBy, "bytes");
      });

      it("answers no matches, a missing path and a bad regex", async () => {
        assert.equal(textOf((await run(grep(), { pattern: "zzzz-not-there" })).result), "No matches found");
        const missing = (await run(grep(), { pattern: "x", path: "nope" })).result;
        assert.equal(missing.isError, true);
        assert.equal(textOf(missing), `Path not found: ${join(dir, "nope")}`);
        const bad = (await run(grep(), { pattern: "a(" })).result;
        assert.equal(bad.isError, true);
        assert.match(textOf(bad), /regex parse error/);
      });

      it("honours .gitignore only inside a git repository, .ignore always", async () => {
        const { dir: plain, cleanup: done } = tempDir();
        try {
          writeTree(plain, { ".gitignore": "a.txt\n", ".ignore": "b.txt\n", "a.txt": "needle\n", "b.txt": "needle\n" });
          const tool = createGrepTool(plain, options());
          assert.equal(textOf((await run(tool, { pattern: "needle" })).result), "a.txt:1: needle");
        } finally {
          done();
        }
      });

      it("stops when aborted", async () => {
        const controller = new AbortController();
        controller.abort();
        const { result } = await run(grep(), { pattern: "needle" }, controller.signal);
        assert.equal(textOf(result), "Operation aborted");
      });
    });
  }

  it("Node search: a nested .gitignore, a negation and a !glob", async () => {
    const { dir, cleanup } = tempDir();
    try {
      mkdirSync(join(dir, ".git"));
      writeTree(dir, {
        ".gitignore": "*.log\n!keep.log\n",
        "pkg/.gitignore": "/gen/\n",
        "pkg/gen/x.ts": "needle\n",
        "pkg/src/gen/y.ts": "needle\n",
        "drop.log": "needle\n",
        "keep.log": "needle\n",
        "vendor/v.ts": "needle\n",
      });
      for (const options of [{ rgPath: null }, {}] as GrepToolOptions[]) {
        const tool = createGrepTool(dir, options);
        assert.deepEqual(sorted(textOf((await run(tool, { pattern: "needle" })).result)), ["keep.log:1: needle", "pkg/src/gen/y.ts:1: needle", "vendor/v.ts:1: needle"]);
        assert.deepEqual(sorted(textOf((await run(tool, { pattern: "needle", glob: "!vendor" })).result)), ["keep.log:1: needle", "pkg/src/gen/y.ts:1: needle"]);
      }
    } finally {
      cleanup();
    }
  });

  // A backtracking pattern ran on the host's thread: the session hung (no command, no Stop answered).
  it("Node search: a pattern that backtracks for ever ends with an error while the host's thread keeps answering", async () => {
    const { dir, cleanup } = tempDir();
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 10);
    try {
      writeFileSync(join(dir, "a.txt"), `ok\n${"a".repeat(40)}!\n`);
      for (const ignoreCase of [false, true]) {
        const started = performance.now();
        const { result } = await run(createGrepTool(dir, { rgPath: null, searchDeadlineMs: 400 }), { pattern: "(a+)+$", ignoreCase });
        assert.ok(result.isError && textOf(result).includes("backtracks"), textOf(result));
        assert.ok(performance.now() - started < 3000, "ended at the deadline");
      }
      const gaps = ticks.slice(1).map((t, i) => t - ticks[i]!);
      assert.ok(Math.max(...gaps) < 300, `the thread answered throughout (longest gap ${Math.max(...gaps).toFixed(0)} ms)`);
    } finally {
      clearInterval(timer);
      cleanup();
    }
  });

  it("Node search: stopped while a pattern backtracks, it settles at once", async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(join(dir, "a.txt"), `${"a".repeat(40)}!\n`);
      const controller = new AbortController();
      const pending = run(createGrepTool(dir, { rgPath: null }), { pattern: "(a+)+$" }, controller.signal);
      setTimeout(() => controller.abort(), 100);
      assert.equal(textOf((await pending).result), "Operation aborted");
    } finally {
      cleanup();
    }
  });

  it("Node search: an abort during the walk settles at once", async () => {
    const controller = new AbortController();
    const io: WalkIo = { ...localWalkIo, stat: async () => ({ isDirectory: () => true, isFile: () => false, size: 0 }), readdir: () => new Promise(() => {}) };
    const pending = run(createGrepTool("/", { rgPath: null, io }), { pattern: "x" }, controller.signal);
    setTimeout(() => controller.abort(), 20);
    assert.equal(textOf((await pending).result), "Operation aborted");
  });

  it("kills a running ripgrep when aborted", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const pidFile = join(dir, "rg.pid");
      writeFileSync(join(dir, "slow-rg"), `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 30\n`);
      chmodSync(join(dir, "slow-rg"), 0o755);
      const controller = new AbortController();
      const pending = run(createGrepTool(dir, { rgPath: join(dir, "slow-rg") }), { pattern: "x" }, controller.signal);
      await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf-8").trim() !== "");
      const pid = Number(readFileSync(pidFile, "utf-8").trim());
      controller.abort();
      assert.equal(textOf((await pending).result), "Operation aborted");
      await until(() => gone(pid), 3000);
    } finally {
      cleanup();
    }
  });
});

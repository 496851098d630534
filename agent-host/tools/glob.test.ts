import { strict as assert } from "node:assert";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { globRegExp, pathGlob } from "./glob";
import { ignoreVerdict, parseIgnoreFiles } from "./ignore-file";
import { localWalkIo } from "./io";
import { tempDir, writeTree } from "./test-support";
import { walk, type WalkEntry } from "./walk";

describe("tools/glob", () => {
  it("translates globs: * within a segment, ** across, ?, classes, braces, escapes", () => {
    const yes = (glob: string, path: string) => assert.ok(globRegExp(glob).test(path), `${glob} should match ${path}`);
    const no = (glob: string, path: string) => assert.ok(!globRegExp(glob).test(path), `${glob} should not match ${path}`);
    yes("*.ts", "a.ts");
    no("*.ts", "src/a.ts");
    yes("src/**/*.ts", "src/a.ts");
    yes("src/**/*.ts", "src/x/y/a.ts");
    yes("**/a.ts", "a.ts");
    yes("src/**", "src/x/y");
    yes("a?c", "abc");
    no("a?c", "a/c");
    yes("[a-c]x", "bx");
    no("[!a-c]x", "bx");
    yes("[]]x", "]x");
    yes("*.{ts,tsx}", "a.tsx");
    no("*.{ts,tsx}", "a.js");
    yes("{src,lib}/**/*.{js,m{j,t}s}", "lib/x/y.mts");
    yes("a\\*b", "a*b");
    no("a\\*b", "axb");
    yes("a+b(c).txt", "a+b(c).txt");
    yes("{unclosed", "{unclosed");
    yes("[unclosed", "[unclosed");
  });

  it("reads --glob like ripgrep: a bare glob matches names anywhere, a path glob is anchored, ! excludes", () => {
    assert.ok(pathGlob("*.ts").matches("deep/er/a.ts"));
    assert.ok(pathGlob("src/*.ts").matches("src/a.ts"));
    assert.ok(!pathGlob("src/*.ts").matches("lib/src/a.ts"));
    assert.ok(pathGlob("/src/*.ts").matches("src/a.ts"));
    assert.equal(pathGlob("!vendor").negated, true);
  });

  it("parses gitignore: comments, negation, directory-only, anchoring, escapes", () => {
    const rules = parseIgnoreFiles(["# comment\n\n*.log\n!keep.log\nbuild/\n/root-only\ndocs/*.md\n\\#hash\ntrailing   \n"]);
    const verdict = (p: string, dir = false) => ignoreVerdict(rules, p, dir);
    assert.equal(verdict("x/y.log"), true);
    assert.equal(verdict("x/keep.log"), false);
    assert.equal(verdict("a/build", true), true);
    assert.equal(verdict("a/build", false), undefined);
    assert.equal(verdict("root-only"), true);
    assert.equal(verdict("sub/root-only"), undefined);
    assert.equal(verdict("docs/a.md"), true);
    assert.equal(verdict("x/docs/a.md"), undefined);
    assert.equal(verdict("#hash"), true);
    assert.equal(verdict("trailing"), true);
  });
});

describe("tools/walk", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  const collect = async (root: string, gitignore: "always" | "in-repo" = "in-repo", limit = Infinity) => {
    const seen: WalkEntry[] = [];
    await walk(root, {
      io: localWalkIo,
      signal: new AbortController().signal,
      gitignore,
      extraIgnoreFiles: [".ignore"],
      includeDirs: true,
      includeSymlinks: false,
      visit: (e) => (seen.push(e), seen.length < limit),
    });
    return seen.map((e) => (e.kind === "dir" ? `${e.relPath}/` : e.relPath));
  };

  it("walks depth-first in name order, skipping .git and ignored directories", async () => {
    mkdirSync(join(dir, ".git/objects"), { recursive: true });
    writeTree(dir, { ".gitignore": "out/\n", "b/z.txt": "", "a.txt": "", "out/x.js": "", ".dot/d": "", ".git/info/exclude": "secret\n", secret: "" });
    assert.deepEqual(await collect(dir), [".dot/", ".dot/d", ".gitignore", "a.txt", "b/", "b/z.txt"]);
    assert.deepEqual(await collect(dir, "in-repo", 2), [".dot/", ".dot/d"]);
  });

  it("applies ignore files of the directories between the repository root and the start", async () => {
    mkdirSync(join(dir, ".git"));
    writeTree(dir, { ".gitignore": "*.tmp\n", "pkg/.ignore": "gen/\n", "pkg/sub/gen/g.ts": "", "pkg/sub/a.ts": "", "pkg/sub/b.tmp": "" });
    assert.deepEqual(await collect(join(dir, "pkg/sub")), ["a.ts"]);
  });

  it("uses .gitignore outside a repository only when told to", async () => {
    writeTree(dir, { ".gitignore": "x.txt\n", "x.txt": "" });
    assert.deepEqual(await collect(dir, "in-repo"), [".gitignore", "x.txt"]);
    assert.deepEqual(await collect(dir, "always"), [".gitignore"]);
  });

  it("a repository's malformed ignore pattern ([z-a]) neither fails the walk nor drops the other rules", async () => {
    writeTree(dir, { ".gitignore": "[z-a]\nout/\n", "a.txt": "", "out/x.js": "" });
    assert.deepEqual(await collect(dir, "always"), [".gitignore", "a.txt"]);
  });

  it("rejects when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      walk(dir, { io: localWalkIo, signal: controller.signal, gitignore: "always", extraIgnoreFiles: [], includeDirs: true, includeSymlinks: true, visit: () => true }),
      /Operation aborted/,
    );
  });
});

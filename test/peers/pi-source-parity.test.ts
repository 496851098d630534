/**
 * Our parsers and loaders against pi 0.87.1's own code (the installed peer, `npm run peers:install`),
 * on the same inputs: frontmatter, skill folders skipped by ignore files, prompt-template arguments,
 * the settings keys pi declares. Peer tests: they need the peer, so they run with `npm run test:peers`
 * and the unit tests beside each module need nothing installed.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { parseFrontmatter } from "../../agent-host/session/context/frontmatter";
import { collectSkillFiles } from "../../agent-host/session/context/skills";
import { parseCommandArgs, substituteArgs } from "../../agent-host/session/context/prompt-templates";
import { loadSettings } from "../../agent-host/session/settings";
import { skillMd, tempTree, type TempTree } from "../fixtures/host/context-tree";
import { assertPeerInstalled, peerDir } from "../support/peers";

/** YAML documents, each read as the frontmatter of `---\n<doc>\n---\nbody`. */
const CASES: string[] = [
 "name: a\ndescription: Use when: reading PDFs",
 "description: 'it''s'\nname: x",
 "description: \"a \\\"q\\\" \\n b\"",
 "description: >\n  folded\n  text\n\n  para\nname: x",
 "description: |\n  lit\n  text\n",
 "description: |-\n  lit\n",
 "description: |+\n  lit\n\n\nname: z",
 "description: >-\n  a\n  b\n\n\n  c\n    more\n  d\n",
 "description: plain\n  continued line\nname: y",
 "description: plain\n\n  after blank\nname: y",
 "name: x\nname: y",
 "description: [a, b]",
 "description: [a, 'b c', \"d\", 1, true, null]",
 "description: {a: 1, b: [x, y]}",
 "metadata:\n  author: me\n  version: 1\ndescription: d",
 "metadata:\n  nested:\n    deep: 1\n  other: x\ndescription: d",
 "allowed-tools:\n  - read\n  - bash\ndescription: d",
 "allowed-tools:\n- read\n- bash\ndescription: d",
 "list:\n  - name: a\n    v: 1\n  - name: b\ndescription: d",
 "description: 'unterminated",
 "\tdescription: tab",
 "description:\tvalue",
 "description: x # comment",
 "description: x#nocomment",
 "disable-model-invocation: yes",
 "disable-model-invocation: True",
 "disable-model-invocation: true\n\nname: x",
 "description: ~",
 "description: 123",
 "description: 1.5e3",
 "description: 0x1F",
 "description: .inf",
 "description:",
 "description:   # just a comment",
 "just text",
 "just\n  multi line text",
 "- a\n- b",
 "description: \"multi\n  line dq\"",
 "description: \"multi\n\n  para dq\"",
 "description: \"esc \\\n  joined\"",
 "description: a\n bad: indent",
 "description: @foo",
 "description: `x",
 "description: *alias",
 "description: &anc val",
 "description: !tag val",
 "description: %x",
 "key with spaces: v",
 "\"quoted key\": v",
 "'single key': v",
 "description: a: b",
 "description: -x",
 "description: - x",
 "description: ? x",
 "# only comment",
 "",
 "description: |\n    deeper\n  shallower",
 "description: 'a\n  b'",
 "  indented: 1\n  other: 2",
 "  indented: 1\nother: 2",
 "a: 1\n  b: 2",
 "description: \"unicode \\u00e9 \\x41\"",
 "description: https://example.com/x",
 "description: \"quoted\" trailing",
 "description: 'q' # comment ok",
 "name: my-skill\ndescription: Extract text and tables from PDF files. Use when reading, converting, or inspecting PDFs.\nlicense: MIT\ncompatibility: node >= 20",
 "description: >\n  Multi line folded\n  description here.\nargument-hint: \"[focus]\"",
 "argument-hint: <file> [options]",
 "argument-hint: [focus]",
 "description: value with 'quotes' inside",
 "description: 50% done",
 "description: a, b, c",
 "description: a [b] {c}",
 "description: \"a\" \"b\"",
 "x: |2\n   two-extra\n  base",
 "x: >\n\n  leading blank\n",
 "description: -",
 "description: 'x'\n  more",
 "k: v\n---",
 "description: |\n  keep # not comment\n  line",
 "seq:\n  - - nested\n    - two\n  - three",
 "empty_flow: []\nempty_map: {}",
 "description: 12:30",
 "description: \"tab\\tchar\"",
 "a: 1\n\t\nb: 2",
 "b:\n\t",
 "b:\n\t\n  nested",
 "a: x\n  \ty",
 "a: |\n  x\n  \ty",
 "a: |\n  x\n\t\n  y",
 "d: >+\n",
 "d: |+\n  f\n\n",
 "  c: |\n  - y: 1",
 "h: [1,\n  d: >+\n  2]",
];

const piPackage = (): string => join(peerDir("pi"), "node_modules", "@earendil-works", "pi-coding-agent");

describe("pi 0.87.1's own code and ours agree", function () {
  this.timeout(60_000);
  let t: TempTree;
  beforeEach(() => (t = tempTree("pi-source-")));
  afterEach(() => t.remove());

  it("uses the yaml and ignore versions pi 0.87.1 uses", () => {
    assertPeerInstalled("pi");
    const version = (modules: string, name: string): string => (JSON.parse(fs.readFileSync(join(modules, name, "package.json"), "utf8")) as { version: string }).version;
    for (const name of ["yaml", "ignore"]) assert.equal(version(join(__dirname, "../../node_modules"), name), version(join(peerDir("pi"), "node_modules"), name), name);
  });

  it(`agrees with pi 0.87.1's parseFrontmatter on ${CASES.length} documents`, async () => {
    assertPeerInstalled("pi");
    const pi = (await import(pathToFileURL(join(piPackage(), "dist", "utils", "frontmatter.js")).href)) as {
      parseFrontmatter(text: string): { frontmatter: unknown; body: string };
    };
    const outcome = (parse: (text: string) => { data: unknown; body: string }, text: string): string => {
      try {
        return JSON.stringify(parse(`---\n${text}\n---\nbody`));
      } catch {
        return "error";
      }
    };
    const piParse = (text: string): { data: unknown; body: string } => {
      const { frontmatter, body } = pi.parseFrontmatter(text);
      const mapping = frontmatter !== null && typeof frontmatter === "object" && !Array.isArray(frontmatter);
      return { data: mapping ? frontmatter : {}, body };
    };
    const quiet = process.emitWarning;
    process.emitWarning = () => undefined; // yaml warns about unknown tags
    try {
      for (const text of CASES) assert.equal(outcome(parseFrontmatter, text), outcome(piParse, text), JSON.stringify(text));
    } finally {
      process.emitWarning = quiet;
    }
  });

  it("skips the same skill folders as pi 0.87.1's loadSkillsFromDir", async () => {
    assertPeerInstalled("pi");
    const skills = join(peerDir("pi"), "node_modules", "@earendil-works", "pi-coding-agent", "dist", "core", "skills.js");
    const pi = (await import(pathToFileURL(skills).href)) as {
      loadSkillsFromDir(options: { dir: string; source: string }): { skills: { filePath: string }[] };
    };
    t.write("root/.gitignore", "Build/\n*.TMP.md\n!keep.tmp.md\nfoo\\ bar/\ntrail  \n\\#hash/\n[ab]c/\n**/deep/**/gone/\n/top/\n");
    t.write("root/sub/.ignore", "/anchored/\nnested/*\n!nested/back/\n");
    t.write("root/sub/.fdignore", "Mixed*/\n");
    const dirs = [
      "build", "BUILD", "foo bar", "trail", "#hash", "ac", "bc", "cc", "x/deep/y/gone", "x/deep/gone", "top", "x/top",
      "sub/anchored", "sub/x/anchored", "sub/nested/a", "sub/nested/back", "sub/mixedCase", "sub/other", "kept",
    ];
    for (const dir of dirs) t.write(`root/${dir}/SKILL.md`, skillMd({ description: dir }));
    for (const file of ["a.tmp.md", "keep.tmp.md", "loose.md"]) t.write(`root/${file}`, skillMd({ description: file }));
    const root = t.path("root");
    const names = (files: string[]): string[] => files.map((f) => relative(root, f)).sort();
    const piFiles = pi.loadSkillsFromDir({ dir: root, source: "path" }).skills.map((s) => s.filePath);
    assert.deepEqual(names(collectSkillFiles(root, "pi")), names(piFiles));
    assert.ok(piFiles.length >= 5 && piFiles.length < dirs.length, `pi loaded ${piFiles.length}`);
  });

  it("agrees with pi 0.87.1's own parseCommandArgs and substituteArgs", async () => {
    assertPeerInstalled("pi");
    const file = join(peerDir("pi"), "node_modules/@earendil-works/pi-coding-agent/dist/core/prompt-templates.js");
    const pi = (await import(pathToFileURL(file).href)) as { parseCommandArgs(s: string): string[]; substituteArgs(c: string, a: string[]): string };
    const inputs = [`a "b c" d`, `'x y'z "" w`, "", "  lots   of   space ", `"unclosed arg`, "tab\tsep\nnewline", "$1 ${2} $@"];
    const templates = ["$1-$2-$3-$10", "$@|$ARGUMENTS", "${1:-d1} ${2:-} ${9:-nine}", "${@:-none} ${ARGUMENTS:-n}", "${@:1} ${@:2:2} ${@:0:1} ${@:3:0}", "${ARGUMENTS} ${@} $", "${1:-a}}} $${1}"];
    for (const input of inputs) {
      const args = parseCommandArgs(input);
      assert.deepEqual(args, pi.parseCommandArgs(input), input);
      for (const template of templates) assert.equal(substituteArgs(template, args), pi.substituteArgs(template, args), `${template} <- ${input}`);
    }
  });

  it("every settings key pi 0.87.1 declares is known (no notice for a real pi setting)", () => {
    assertPeerInstalled("pi");
    const declarations = fs.readFileSync(path.join(peerDir("pi"), "node_modules/@earendil-works/pi-coding-agent/dist/core/settings-manager.d.ts"), "utf8");
    const body = /export interface Settings \{([\s\S]*?)\n\}/.exec(declarations)?.[1] ?? "";
    const keys = [...body.matchAll(/^ {4}([A-Za-z]+)\??:/gm)].map((m) => m[1]!);
    assert.ok(keys.length > 40, `found ${keys.length} keys`);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "settings-"));
    try {
      // null for every key: a typed one gets a "must be …" notice, an unknown one "unknown key dropped".
      fs.writeFileSync(path.join(root, "settings.json"), `{${keys.map((k) => `${JSON.stringify(k)}: null`).join(", ")}}`);
      const { problems } = loadSettings(root, root, false);
      assert.deepEqual(problems.filter((p) => /unknown key/.test(p)), []);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

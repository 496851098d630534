/**
 * Frontmatter through `yaml` against pi's own `parseFrontmatter` (from the installed pi 0.87.1
 * peer, with its own copy of `yaml`): same data and body, or both reject, on the documents our
 * earlier hand-written YAML subset was checked with. Plus fixed expectations that need no peer.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assertPeerInstalled, peerDir } from "../../../test/support/peers";
import { parseFrontmatter } from "./frontmatter";

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

const data = (yaml: string): Record<string, unknown> => parseFrontmatter(`---\n${yaml}\n---\nbody`).data;
const piPackage = (): string => join(peerDir("pi"), "node_modules", "@earendil-works", "pi-coding-agent");

describe("parseFrontmatter", () => {
  it("splits YAML and a trimmed body; CRLF and a BOM are normalised", () => {
    assert.deepEqual(parseFrontmatter("\uFEFF---\r\nname: x\r\ndescription: d\r\n---\r\n\r\nBody\r\nline\r\n\r\n"), {
      data: { name: "x", description: "d" },
      body: "Body\nline",
    });
  });

  it("without an opening or closing --- there is no frontmatter and the body is untrimmed", () => {
    assert.deepEqual(parseFrontmatter("\nHello $1\n"), { data: {}, body: "\nHello $1\n" });
    assert.deepEqual(parseFrontmatter("---\nname: x\nno end\n"), { data: {}, body: "---\nname: x\nno end\n" });
  });

  it("ends at the first line starting with ---, and an empty or non-mapping block gives {}", () => {
    assert.deepEqual(parseFrontmatter("---\na: 1\n---\nx\n---\ny"), { data: { a: 1 }, body: "x\n---\ny" });
    assert.deepEqual(parseFrontmatter("---\n---\nbody"), { data: {}, body: "body" });
    assert.deepEqual(parseFrontmatter("---\n- a\n- b\n---\nbody"), { data: {}, body: "body" });
    assert.deepEqual(parseFrontmatter("---\n# only a comment\n---\nbody"), { data: {}, body: "body" });
    assert.deepEqual(parseFrontmatter("---\njust text\n---\nbody"), { data: {}, body: "body" });
  });

  it("reads the usual frontmatter shapes", () => {
    assert.deepEqual(data("name: pdf-tools\ndescription: 'It''s for PDFs'\ndisable-model-invocation: true\n"), {
      name: "pdf-tools", description: "It's for PDFs", "disable-model-invocation": true,
    });
    assert.deepEqual(data("description: >\n  one\n  two\n\n  three\nmetadata:\n  v: 1\nallowed-tools:\n  - read\n"), {
      description: "one two\nthree\n", metadata: { v: 1 }, "allowed-tools": ["read"],
    });
    assert.deepEqual(data("argument-hint: \"[focus]\"\nx: ~\ny: 0x10\nz: [a, 'b c']"), { "argument-hint": "[focus]", x: null, y: 16, z: ["a", "b c"] });
  });

  it("rejects what yaml rejects, with the line within the frontmatter", () => {
    assert.throws(() => data("name: a\ndescription: Use when: reading"), (e: unknown) => e instanceof Error && e.name === "YAMLParseError" && /line 2/.test(e.message));
    assert.throws(() => data("a: 1\na: 2"), /unique/);
    assert.throws(() => data("\tdescription: x"), /Tabs/);
    assert.throws(() => data("description: 'open"), /closing/);
  });

  it("uses the yaml and ignore versions pi 0.87.1 uses", () => {
    assertPeerInstalled("pi");
    const version = (modules: string, name: string): string => (JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")) as { version: string }).version;
    for (const name of ["yaml", "ignore"]) assert.equal(version(join(__dirname, "../../../node_modules"), name), version(join(peerDir("pi"), "node_modules"), name), name);
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
});

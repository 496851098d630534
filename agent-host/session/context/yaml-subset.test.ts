/**
 * The YAML subset against pi's own parser (the `yaml` package inside the installed pi 0.87.1
 * peer): same value, or both reject. Plus a few fixed expectations that need no peer.
 */
import { strict as assert } from "node:assert";
import { createRequire } from "node:module";
import { join } from "node:path";
import { assertPeerInstalled, peerDir } from "../../../test/support/peers";
import { parseYaml, YamlError } from "./yaml-subset";

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

describe("yaml-subset", () => {
  it("reads the usual frontmatter shapes", () => {
    assert.deepEqual(parseYaml("name: pdf-tools\ndescription: 'It''s for PDFs'\ndisable-model-invocation: true\n"), {
      name: "pdf-tools", description: "It's for PDFs", "disable-model-invocation": true,
    });
    assert.deepEqual(parseYaml("description: >\n  one\n  two\n\n  three\nmetadata:\n  v: 1\nallowed-tools:\n  - read\n"), {
      description: "one two\nthree\n", metadata: { v: 1 }, "allowed-tools": ["read"],
    });
    assert.deepEqual(parseYaml("argument-hint: \"[focus]\"\nx: ~\ny: 0x10\nz: [a, 'b c']"), { "argument-hint": "[focus]", x: null, y: 16, z: ["a", "b c"] });
    assert.equal(parseYaml(""), null);
    assert.equal(parseYaml("just text"), "just text");
  });

  it("rejects what yaml rejects, with the line", () => {
    assert.throws(() => parseYaml("name: a\ndescription: Use when: reading"), (e: unknown) => e instanceof YamlError && /line 2/.test(e.message));
    assert.throws(() => parseYaml("a: 1\na: 2"), /unique/);
    assert.throws(() => parseYaml("\tdescription: x"), /Tabs/);
    assert.throws(() => parseYaml("description: 'open"), /closing/);
  });

  it(`agrees with pi's yaml package on ${CASES.length} documents`, () => {
    assertPeerInstalled("pi");
    const yaml = createRequire(__filename)(join(peerDir("pi"), "node_modules", "yaml")) as { parse(text: string): unknown };
    const outcome = (parse: (text: string) => unknown, text: string): string => {
      try {
        return JSON.stringify({ value: parse(text) });
      } catch {
        return "error";
      }
    };
    const quiet = process.emitWarning;
    process.emitWarning = () => undefined; // yaml warns about unknown tags
    try {
      for (const text of CASES) assert.equal(outcome(parseYaml, text), outcome((s) => yaml.parse(s), text), JSON.stringify(text));
    } finally {
      process.emitWarning = quiet;
    }
  });
});

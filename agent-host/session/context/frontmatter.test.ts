/**
 * Frontmatter through `yaml`: fixed expectations. The comparison with pi's own `parseFrontmatter`
 * (the installed peer) is in test/peers/pi-source-parity.test.ts.
 */
import { strict as assert } from "node:assert";
import { parseFrontmatter } from "./frontmatter";

const data = (yaml: string): Record<string, unknown> => parseFrontmatter(`---\n${yaml}\n---\nbody`).data;

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

});

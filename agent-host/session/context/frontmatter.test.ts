import { strict as assert } from "node:assert";
import { parseFrontmatter } from "./frontmatter";
import { YamlError } from "./yaml-subset";

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
  });

  it("throws a YamlError for invalid YAML", () => {
    assert.throws(() => parseFrontmatter("---\ndescription: Use when: x\n---\n"), YamlError);
  });
});

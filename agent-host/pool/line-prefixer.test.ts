import { strict as assert } from "node:assert";
import { LinePrefixer } from "./line-prefixer";

describe("pool: a session's output, line by line with its id", () => {
  const collect = () => {
    const out: string[] = [];
    const prefixer = new LinePrefixer(Buffer.from("s1 "), (bytes) => (out.push(bytes.toString("utf8")), true));
    return { out, prefixer };
  };

  it("prefixes each whole line, a line split across chunks (and inside a UTF-8 character) once", () => {
    const { out, prefixer } = collect();
    const text = Buffer.from('{"a":"é"}\n{"b":2}\n{"c":');
    prefixer.push(text.subarray(0, 7)); // cuts "é" in two
    prefixer.push(text.subarray(7));
    prefixer.push(Buffer.from("3}\n"));
    assert.deepEqual(out.join(""), 's1 {"a":"é"}\ns1 {"b":2}\ns1 {"c":3}\n');
  });

  it("writes the lines of a chunk in one write (a write per line made the extension host read a stream in 15-40x more reads)", () => {
    const { out, prefixer } = collect();
    prefixer.push(Buffer.from('{"a":1}\n{"b":2}\n{"c":'));
    prefixer.push(Buffer.from('3}\n{"d":4}\n'));
    assert.deepEqual(out, ['s1 {"a":1}\ns1 {"b":2}\n', 's1 {"c":3}\ns1 {"d":4}\n']);
  });

  it("gives a last line without LF one at the end", () => {
    const { out, prefixer } = collect();
    prefixer.push(Buffer.from("tail"));
    assert.deepEqual(out, []);
    prefixer.end();
    assert.deepEqual(out, ["s1 tail\n"]);
  });

  it("says when the output is full", () => {
    const prefixer = new LinePrefixer(Buffer.from("s1 "), () => false);
    assert.equal(prefixer.push(Buffer.from("a\n")), false);
    assert.equal(prefixer.push(Buffer.from("partial")), true);
  });
});

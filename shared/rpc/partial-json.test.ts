import { strict as assert } from "node:assert";
import { PartialJsonParser, parsePartialJson } from "./partial-json";

/** The value after pushing `text` in pieces of `size` characters, reading value() after each (as a stream does). */
function streamed(text: string, size: number): Record<string, unknown> {
  const parser = new PartialJsonParser();
  let value: Record<string, unknown> = {};
  for (let i = 0; i < text.length; i += size) value = parser.push(text.slice(i, i + size)).value();
  return value;
}

describe("partial JSON (tool-call arguments while they stream)", () => {
  const cases: [string, unknown][] = [
    ["", {}],
    ["{", {}],
    ['{"pa', {}],
    ['{"path"', {}],
    ['{"path":', {}],
    ['{"path": "src/a', { path: "src/a" }],
    ['{"path":"a.ts","content":"line\\n', { path: "a.ts", content: "line\n" }],
    ['{"s":"tab\\', { s: "tab" }],
    ['{"s":"\\u00e', { s: "" }],
    ['{"s":"\\u00e9!', { s: "é!" }],
    ['{"s":"\\d+', { s: "\\d+" }],
    ['{"n":-', {}],
    ['{"n":-1', { n: -1 }],
    ['{"n":1.5e', { n: 1.5 }],
    ['{"n":12,"b":t', { n: 12, b: true }],
    ['{"b":fa', { b: false }],
    ['{"x":nu', { x: null }],
    ['{"edits":[{"oldText":"a","newText":"b"},{"oldText":"c', { edits: [{ oldText: "a", newText: "b" }, { oldText: "c" }] }],
    ['{"a":[1,2,-', { a: [1, 2] }],
    ['{"a":[[],{}, [3', { a: [[], {}, [3]] }],
    ['{"a":{"b":{"c":"d"}},"e":', { a: { b: { c: "d" } } }],
    ['{"done":1} trailing', { done: 1 }],
    ["[1,2", {}],
    ['"just a string', {}],
    ['{"a":1 "b":2}', { a: 1 }],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(expected)}, whole and a character at a time`, () => {
      assert.deepEqual(parsePartialJson(text), expected);
      assert.deepEqual(streamed(text, 1), expected);
    });
  }

  it("drops a __proto__, constructor or prototype key with its value (the foreign-JSON door's rule), streamed or whole", () => {
    const text = '{"__proto__":{"polluted":true},"a":{"constructor":{"prototype":{"x":1}},"b":[{"\\u005f_proto__":2,"c":3}]},"x":"y"}';
    for (const value of [streamed(text, 1), streamed(text, 7), parsePartialJson(text), parsePartialJson(text.slice(0, -2))]) {
      assert.deepEqual(JSON.parse(JSON.stringify(value)), { a: { b: [{ c: 3 }] }, x: "y" });
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      for (const key of ["__proto__", "constructor", "prototype"]) {
        assert.ok(!Object.hasOwn(value, key) && !Object.hasOwn(value.a as object, key), key);
      }
    }
  });

  it("keeps a raw control character inside a string (as Pi's repair does)", () => {
    assert.deepEqual(streamed('{"c":"a\nb\tc', 2), { c: "a\nb\tc" });
  });

  it("updates one object in place, so a reader holding it sees the growth", () => {
    const parser = new PartialJsonParser();
    const first = parser.push('{"content":"ab').value();
    parser.push("cd");
    assert.equal(parser.value(), first);
    assert.deepEqual(first, { content: "abcd" });
  });

  it("costs O(delta): 2 MB of arguments in 20-character deltas, the value read after each, in well under 2 s", () => {
    const content = "x".repeat(99) + "\\n";
    const text = `{"path":"big.txt","content":"${content.repeat(20_000)}"}`;
    const t0 = performance.now();
    const value = streamed(text, 20);
    const ms = performance.now() - t0;
    assert.equal((value.content as string).length, 20_000 * 100);
    // The whole-text re-parse it replaces took minutes here (quadratic); this takes tens of ms.
    assert.ok(ms < 2000, `took ${ms.toFixed(0)} ms`);
  });
});

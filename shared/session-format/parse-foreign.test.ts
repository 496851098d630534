// Session files through the foreign-JSON door (issue #30): a file is anyone's text; an entry
// whose objects hold `__proto__`, `constructor` or `prototype` keys is read without them, and
// the count says how many were dropped.
import { strict as assert } from "node:assert";
import { parseSessionLines } from "./parse";
import { assertNoForbiddenKeys } from "../../test/support/inert";

describe("parseSessionLines: foreign keys", () => {
  afterEach(() => {
    for (const key of ["version", "role", "polluted"]) assert.equal((Object.prototype as Record<string, unknown>)[key], undefined, `Object.prototype.${key}`);
  });

  it("drops the keys in the header and in entries (plain, escaped, nested, twice), keeps the rest, and counts them", () => {
    const lines = [
      `{"type":"session","version":1,"id":"s1","timestamp":"t","cwd":"/w","__proto__":{"version":3}}`,
      `{"type":"message","message":{"role":"user","content":"a","\\u005f\\u005fproto__":{"role":"assistant"}}}`,
      `{"type":"message","message":{"role":"user","content":[{"type":"text","text":"b","constructor":{"prototype":{"polluted":1}}}]}}`,
      `{"type":"message","__proto__":{},"__proto__":{"polluted":1},"message":{"role":"hookMessage","content":"c"}}`,
    ];
    const parsed = parseSessionLines(lines);
    assert.equal(parsed.migrated, true, "the file's own version (1) counts, not one under __proto__");
    assert.equal(parsed.droppedKeys, 4);
    assert.deepEqual(parsed.entries.map((e) => (e as { message: { role: string } }).message.role), ["user", "user", "custom"]);
    assertNoForbiddenKeys(parsed);
  });

  it("a line that cannot hold such a key is not walked (the fast path), and counts none", () => {
    const parsed = parseSessionLines([`{"type":"session","version":3,"id":"s1","timestamp":"t","cwd":"/w"}`, `{"type":"label","id":"a","parentId":null,"timestamp":"t","targetId":"x"}`]);
    assert.equal(parsed.droppedKeys, 0);
    assert.equal(Object.getPrototypeOf(parsed.entries[0]), Object.prototype);
  });
});

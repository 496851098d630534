import { strict as assert } from "node:assert";
import { parseSessionLines } from "./parse";

const header = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" };
const line = (value: unknown) => JSON.stringify(value);

describe("parseSessionLines", () => {
  it("skips and counts lines that are not JSON objects, never throws", () => {
    const parsed = parseSessionLines([line(header), "not json", "[1,2]", "42", "", line({ type: "label", id: "a", parentId: null, timestamp: "t", targetId: "x" }), '{"type":"message","id":"cut']);
    assert.equal(parsed.header?.id, "s1");
    assert.deepEqual(parsed.entries.map((e) => e.id), ["a"]);
    assert.equal(parsed.skippedLines, 4);
    assert.equal(parsed.migrated, false);
  });

  it("has no header for a file without one", () => {
    const parsed = parseSessionLines([line({ type: "message", id: "a" }), "garbage"]);
    assert.equal(parsed.header, undefined);
    assert.equal(parsed.skippedLines, 1);
  });

  it("migrates version 1 (a list without ids) to a chain, and v2's hookMessage role to custom", () => {
    const parsed = parseSessionLines([
      line({ ...header, version: 1 }),
      line({ type: "message", message: { role: "user", content: "a" } }),
      line({ type: "message", message: { role: "hookMessage", content: "b" } }),
    ]);
    assert.equal(parsed.migrated, true);
    assert.equal(parsed.header?.version, 3);
    const [first, second] = parsed.entries;
    assert.equal(first.parentId, null);
    assert.equal(second.parentId, first.id);
    assert.equal(second.type === "message" && second.message.role, "custom");
  });

  it("parses only wanted lines after the header, without counting the others", () => {
    const parsed = parseSessionLines([line(header), line({ type: "label", id: "a" }), "not json", line({ type: "session_info", id: "b", name: "N" })], {
      wanted: (text) => text.includes('"session_info"'),
    });
    assert.deepEqual(parsed.entries.map((e) => e.id), ["b"]);
    assert.equal(parsed.skippedLines, 0);
  });
});

import { strict as assert } from "node:assert";
import { existsSync, readFileSync } from "node:fs";
import { OutputCollector } from "./output";
import { tempDir } from "./test-support";

describe("tools/output", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("keeps small output in memory, with no temp file", async () => {
    const out = new OutputCollector({ tempDir: dir });
    out.append(Buffer.from("a\nb"));
    out.finish();
    const snap = out.snapshot();
    await out.close();
    assert.deepEqual([snap.content, snap.truncation.truncated, snap.truncation.totalLines, snap.fullOutputPath], ["a\nb", false, 2, undefined]);
  });

  it("streams megabytes with a bounded tail, exact totals and the full output on disk", async () => {
    const out = new OutputCollector({ tempDir: dir, tempFilePrefix: "t" });
    let expected = "";
    for (let i = 0; i < 2000; i++) {
      const chunk = Array.from({ length: 50 }, (_, j) => `row ${i * 50 + j} ${"z".repeat(40)}`).join("\n") + "\n";
      expected += chunk;
      // split a chunk inside a multi-byte character to check the streaming decoder
      const bytes = Buffer.from(i === 7 ? `é${chunk}` : chunk);
      if (i === 7) expected = expected.slice(0, expected.length - chunk.length) + `é${chunk}`;
      out.append(bytes.subarray(0, 1));
      out.append(bytes.subarray(1));
    }
    out.finish();
    const snap = out.snapshot();
    await out.close();
    assert.equal(snap.truncation.totalLines, 100000);
    assert.equal(snap.truncation.totalBytes, Buffer.byteLength(expected));
    assert.equal(snap.truncation.truncatedBy, "bytes");
    assert.ok(snap.content.endsWith(`row 99999 ${"z".repeat(40)}`));
    assert.ok(snap.content.split("\n").every((line) => /^row \d+ z{40}$/.test(line)), "only whole lines");
    assert.ok(snap.fullOutputPath && existsSync(snap.fullOutputPath));
    assert.equal(readFileSync(snap.fullOutputPath, "utf-8"), expected);
  });
});

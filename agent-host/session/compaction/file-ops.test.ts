import { strict as assert } from "node:assert";
import { collectFileOps, emptyFileOps, fileLists, formatFileLists, stripFileLists } from "./file-ops";
import { assistant, call } from "../../../test/fixtures/host/compaction";

describe("compaction file lists", () => {
  it("sorts read and modified files; a file read and then changed counts as modified", () => {
    const ops = emptyFileOps();
    collectFileOps(assistant("", { calls: [call("1", "read", { path: "z.ts" }), call("2", "read", { path: "a.ts" }), call("3", "edit", { path: "a.ts" }), call("4", "write", { path: "m.ts" }), call("5", "bash", { path: "ignored" }), call("6", "read", {})] }), ops);
    assert.deepEqual(fileLists(ops), { readFiles: ["z.ts"], modifiedFiles: ["a.ts", "m.ts"] });
    assert.equal(formatFileLists(fileLists(ops)), "\n\n<read-files>\nz.ts\n</read-files>\n\n<modified-files>\na.ts\nm.ts\n</modified-files>");
    assert.equal(formatFileLists({ readFiles: [], modifiedFiles: [] }), "");
  });

  it("strips only the trailing file-list blocks of a summary", () => {
    const body = "Body mentions <read-files> inline </read-files> and goes on";
    assert.equal(stripFileLists(body + formatFileLists({ readFiles: ["a", "b"], modifiedFiles: ["c"] })), body);
    assert.equal(stripFileLists(`x${formatFileLists({ readFiles: [], modifiedFiles: ["c"] })}`), "x");
    assert.equal(stripFileLists(body), body);
  });
});

import * as assert from "node:assert/strict";
import { assumedCapabilities } from "../../shared/rpc";
import { safeguardsNote, SAFEGUARDS_KEY } from "./safeguards-note";

describe("safeguards note: what the chat says of an agent without our policy", () => {
  const pi = { ...assumedCapabilities };
  it("says nothing for the bundled host (permission modes)", () => {
    assert.equal(safeguardsNote({ capabilities: { ...pi, permissionModes: true }, sandbox: undefined, sandboxMode: "workspace-write" }), undefined);
  });
  it("names the agent by what it is, says no question comes first, the sandbox as the header has it, and the review", () => {
    const note = safeguardsNote({ capabilities: { ...pi, flavor: "omp", hostTools: true }, sandbox: { label: "Not sandboxed", detail: "omp runs with all your permissions: <bwrap missing>." }, sandboxMode: "workspace-write" });
    assert.equal(note?.key, SAFEGUARDS_KEY);
    assert.equal(note?.title, "Safeguards with omp");
    assert.match(note!.text, /No question before it changes a file or runs a command, unless its own extensions ask/);
    assert.match(note!.text, /Sandbox: Not sandboxed\. omp runs with all your permissions: <bwrap missing>\./);
    assert.match(note!.text, /Changes view still lists/);
    assert.doesNotMatch(note!.text, /unsaved buffers/, "omp with the editor's tools reads them");
  });
  it("says what 'sandboxed' means in each mode", () => {
    assert.match(safeguardsNote({ capabilities: pi, sandbox: undefined, sandboxMode: "workspace-write" })!.text, /only in this workspace and its own folder/);
    assert.match(safeguardsNote({ capabilities: pi, sandbox: undefined, sandboxMode: "read-only" })!.text, /only in its own folder \(pi\.sandbox\.mode is read-only\)/);
    assert.match(safeguardsNote({ capabilities: { ...pi, flavor: "pi-legacy" }, sandbox: undefined, sandboxMode: "read-only" })!.title!, /with pi$/);
  });

  it("an ACP agent by its name: its own rules and modes, what the editor does for it, what ACP lacks (not pi's note: it reads unsaved buffers through the editor)", () => {
    const note = safeguardsNote({ capabilities: pi, sandbox: { label: "Not sandboxed", detail: "ACP: node runs with all your permissions." }, sandboxMode: "workspace-write", acpAgent: "Claude Code" });
    assert.equal(note?.title, "Safeguards with Claude Code");
    assert.match(note!.text, /^Claude Code is an ACP agent/);
    assert.match(note!.text, /Sandbox: Not sandboxed\. ACP: node runs with all your permissions\./);
    assert.match(note!.text, /no session tree, fork, compaction or Pi extension UI/);
    assert.doesNotMatch(note!.text, /\bpi\b|cannot read the editor's unsaved buffers/);
  });
});

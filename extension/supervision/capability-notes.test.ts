import * as assert from "node:assert/strict";
import { editorToolsBadge } from "./capability-notes";

describe("capability notes: the chat header's editor tools badge", () => {
  it("says in plain words what the user gets through the bridge, the how in its tooltip", () => {
    const badge = editorToolsBadge("bridge");
    assert.equal(badge?.label, "Editor tools on");
    assert.doesNotMatch(badge.label, /bridge|protocol/);
    assert.match(badge.detail, /unsaved changes/);
    assert.match(badge.detail, /through a small Pi extension/);
  });

  it("says nothing when the tools come through the host-tool protocol, and that they are off when they do not come", () => {
    assert.equal(editorToolsBadge("protocol"), undefined);
    assert.equal(editorToolsBadge(undefined)?.label, "No editor tools");
  });
});

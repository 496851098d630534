import * as assert from "node:assert/strict";
import { terminalOnlyNotice } from "../../../shared/protocol";
import { createUiContext, type NoticeSpec } from "./ui-context";

function recordingContext() {
  const notices: NoticeSpec[] = [];
  const ui = createUiContext({ dialog: async () => undefined, notice: (spec) => void notices.push(spec) });
  return { ui, notices };
}

describe("ctx.ui in RPC mode", () => {
  afterEach(() => delete process.env.PI_RPC_EMIT_TITLE);

  it("resolves custom() to undefined, as Pi, and tells the client a terminal view was wanted", async () => {
    const { ui, notices } = recordingContext();
    assert.equal(await ui.custom(() => undefined as never), undefined);
    assert.deepEqual(notices, [{ method: "notify", message: terminalOnlyNotice, notifyType: "warning" }]);
  });

  it("sends setTitle as Pi 0.87.1 does, unless PI_RPC_EMIT_TITLE=0", () => {
    const { ui, notices } = recordingContext();
    ui.setTitle("first");
    process.env.PI_RPC_EMIT_TITLE = "0";
    ui.setTitle("second");
    process.env.PI_RPC_EMIT_TITLE = "1";
    ui.setTitle("third");
    assert.deepEqual(notices, [{ method: "setTitle", title: "first" }, { method: "setTitle", title: "third" }]);
  });
});

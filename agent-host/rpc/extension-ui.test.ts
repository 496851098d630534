import { strict as assert } from "node:assert";
import { checkOutbound } from "../../shared/protocol";
import { createUiContext } from "../session/extensions";
import { RpcExtensionUi } from "./extension-ui";

type Frame = Record<string, unknown> & { id: string; method: string };

function setup() {
  const sent: Frame[] = [];
  let n = 0;
  const bridge = new RpcExtensionUi((frame) => sent.push(frame as Frame), () => `ui-${++n}`);
  return { sent, bridge, ui: createUiContext(bridge) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("RPC extension UI (ctx.ui over extension_ui_request / extension_ui_response)", () => {
  it("sends each dialog with a fresh id and resolves it with the matching answer", async () => {
    const { sent, bridge, ui } = setup();
    const color = ui.select("Pick", ["a", "b"]);
    const ok = ui.confirm("Sure?", "Really?");
    const name = ui.input("Name", "type here");
    const text = ui.editor("Edit", "prefill");
    assert.deepEqual(sent, [
      { type: "extension_ui_request", id: "ui-1", method: "select", title: "Pick", options: ["a", "b"] },
      { type: "extension_ui_request", id: "ui-2", method: "confirm", title: "Sure?", message: "Really?" },
      { type: "extension_ui_request", id: "ui-3", method: "input", title: "Name", placeholder: "type here" },
      { type: "extension_ui_request", id: "ui-4", method: "editor", title: "Edit", prefill: "prefill" },
    ]);
    for (const frame of sent) assert.equal(checkOutbound(frame).ok, true, frame.method);
    // Answers in another order than asked: matched by id.
    bridge.receive({ type: "extension_ui_response", id: "ui-3", value: "Ada" });
    bridge.receive({ type: "extension_ui_response", id: "ui-2", confirmed: true });
    bridge.receive({ type: "extension_ui_response", id: "ui-4", cancelled: true });
    bridge.receive({ type: "extension_ui_response", id: "ui-1", value: "b" });
    assert.deepEqual(await Promise.all([color, ok, name, text]), ["b", true, "Ada", undefined]);
    assert.equal(bridge.openDialogs, 0);
  });

  it("a cancelled confirm is false; a value answer to a confirm is false too", async () => {
    const { bridge, ui } = setup();
    const a = ui.confirm("A", "a");
    const b = ui.confirm("B", "b");
    bridge.receive({ type: "extension_ui_response", id: "ui-1", cancelled: true });
    bridge.receive({ type: "extension_ui_response", id: "ui-2", value: "yes" });
    assert.deepEqual(await Promise.all([a, b]), [false, false]);
  });

  it("a timeout resolves the default itself and sends nothing more; a late answer is ignored", async () => {
    const { sent, bridge, ui } = setup();
    const started = Date.now();
    const picked = await ui.select("Quick", ["x"], { timeout: 50 });
    assert.equal(picked, undefined);
    assert.ok(Date.now() - started >= 45);
    assert.deepEqual(sent, [{ type: "extension_ui_request", id: "ui-1", method: "select", title: "Quick", options: ["x"], timeout: 50 }]);
    assert.equal(await ui.confirm("Quick?", "m", { timeout: 20 }), false);
    bridge.receive({ type: "extension_ui_response", id: "ui-1", value: "x" });
    assert.equal(bridge.openDialogs, 0);
    assert.equal(sent.length, 2);
  });

  it("an AbortSignal withdraws the dialog without a frame; an aborted signal sends nothing at all", async () => {
    const { sent, bridge, ui } = setup();
    const controller = new AbortController();
    const answer = ui.confirm("Abort me", "m", { signal: controller.signal });
    await tick();
    controller.abort();
    assert.equal(await answer, false);
    assert.equal(sent.length, 1);
    assert.equal(bridge.openDialogs, 0);
    assert.equal(await ui.input("Never", undefined, { signal: controller.signal }), undefined);
    assert.equal(sent.length, 1);
    bridge.receive({ type: "extension_ui_response", id: "ui-1", confirmed: true }); // late: ignored
  });

  it("unknown ids are ignored; cancelAll resolves every open dialog with its default", async () => {
    const { bridge, ui } = setup();
    const a = ui.select("A", ["1"]);
    const b = ui.confirm("B", "b");
    bridge.receive({ type: "extension_ui_response", id: "nope", value: "1" });
    assert.equal(bridge.openDialogs, 2);
    bridge.cancelAll();
    assert.deepEqual(await Promise.all([a, b]), [undefined, false]);
  });

  it("fire-and-forget methods send a request each, with undefined fields left out, and wait for nothing", () => {
    const { sent, bridge, ui } = setup();
    ui.notify("hello");
    ui.notify("careful", "warning");
    ui.setStatus("k", "running");
    ui.setStatus("k", undefined);
    ui.setWidget("w", ["l1", "l2"], { placement: "belowEditor" });
    ui.setWidget("w", undefined);
    ui.setWidget("w", () => ({}));
    ui.setTitle("pi - project");
    ui.setEditorText("draft");
    ui.pasteToEditor("pasted");
    const strip = sent.map(({ type: _t, id: _i, ...rest }) => rest);
    assert.deepEqual(strip, [
      { method: "notify", message: "hello" },
      { method: "notify", message: "careful", notifyType: "warning" },
      { method: "setStatus", statusKey: "k", statusText: "running" },
      { method: "setStatus", statusKey: "k" },
      { method: "setWidget", widgetKey: "w", widgetLines: ["l1", "l2"], widgetPlacement: "belowEditor" },
      { method: "setWidget", widgetKey: "w" },
      { method: "setTitle", title: "pi - project" },
      { method: "set_editor_text", text: "draft" },
      { method: "set_editor_text", text: "pasted" },
    ]);
    assert.equal(new Set(sent.map((f) => f.id)).size, sent.length);
    for (const frame of sent) assert.equal(checkOutbound(frame).ok, true, frame.method);
    assert.equal(bridge.openDialogs, 0);
  });

  it("terminal-only methods degrade as pi documents for RPC mode", async () => {
    const { sent, ui } = setup();
    assert.equal(await ui.custom(() => ({})), undefined);
    assert.equal(ui.getEditorText(), "");
    assert.equal(ui.getEditorComponent(), undefined);
    assert.equal(ui.getToolsExpanded(), false);
    assert.deepEqual(ui.getAllThemes(), []);
    assert.equal(ui.getTheme("dark"), undefined);
    assert.deepEqual(ui.setTheme("dark"), { success: false, error: "Theme switching not supported in RPC mode" });
    assert.equal(typeof ui.onTerminalInput(() => undefined), "function");
    ui.setWorkingMessage("x");
    ui.setFooter(undefined);
    ui.setToolsExpanded(true);
    assert.equal(ui.theme.fg?.("accent", "text"), "text");
    assert.equal(ui.theme.bold?.("strong"), "strong");
    // Only custom() says something (our addition: pi is silent): a client can offer the terminal.
    assert.deepEqual(
      sent.map((f) => f.method),
      ["notify"],
    );
  });
});

import * as assert from "node:assert/strict";
import { renderStatus, type StatusView } from "./render-status";

const base: StatusView = { status: "idle", openDialogs: 0, queued: 0, notes: [], modelName: "Mock A", label: "bundled agent host" };

describe("renderStatus", () => {
  it("shows the model when idle and opens the chat on click", () => {
    const r = renderStatus(base);
    assert.equal(r.state, "idle");
    assert.equal(r.text, "$(sparkle) Pi: Mock A");
    assert.equal(r.command, "pi.focusChat");
    assert.match(r.tooltip, /\[Switch Model\]\(command:pi\.switchModel\)/);
  });

  it("shows a running agent with its queue, and a dialog waiting for the user", () => {
    assert.equal(renderStatus({ ...base, status: "running", queued: 2 }).text, "$(sync~spin) Pi: Mock A (+2 queued)");
    const waiting = renderStatus({ ...base, status: "running", openDialogs: 1 });
    assert.equal(waiting.state, "waiting-for-dialog");
    assert.equal(waiting.background, "warning");
  });

  // #32 trial: a start that failed read "Pi: crashed" (and "Agent stopped unexpectedly" in the chat).
  it("says a start that failed did not start, and opens the chat that says why", () => {
    const failed = renderStatus({ ...base, status: "crashed", startFailed: true });
    assert.equal(failed.text, "$(error) Pi: did not start");
    assert.equal(failed.command, "pi.focusChat");
    assert.match(failed.tooltip, /did not start/);
    assert.match(failed.tooltip, /\[Retry\]\(command:pi\.restartAgent\)/);
  });

  it("restarts a crashed agent on click and says when it gave up", () => {
    const crashed = renderStatus({ ...base, status: "crashed", gaveUp: true });
    assert.equal(crashed.command, "pi.restartAgent");
    assert.equal(crashed.background, "error");
    assert.match(crashed.tooltip, /not restarted/);
    assert.equal(renderStatus({ ...base, status: "crashed", restartAt: 1 }).text, "$(error) Pi: restarting…");
  });

  it("lists capability notes and explains an untrusted workspace", () => {
    assert.match(renderStatus({ ...base, notes: ["This agent has no host tools: editor tools are off."] }).tooltip, /no host tools/);
    const blocked = renderStatus({ ...base, status: "stopped", blockedReason: "Not trusted." });
    assert.equal(blocked.state, "restricted");
    assert.equal(blocked.command, "workbench.trust.manage");
  });

  it("escapes foreign names, so a crafted session name or model name forms no link, icon or markup", () => {
    const crafted = "Docs [run me](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%5Cn%22%7D) $(zap) <b>x</b>";
    const r = renderStatus({ ...base, sessionName: crafted, modelName: `M ${crafted}`, label: crafted, notes: [crafted] });
    const links = [...r.tooltip.matchAll(/(?<!\\)\[([^\]]*)\]\((?:command:)?([^)]*)\)/g)].map((m) => m[2]);
    assert.ok(links.every((target) => target.startsWith("pi.")), `only our own command links: ${links.join(", ")}`);
    assert.doesNotMatch(r.tooltip, /(?<!\\)\]\(command:workbench/);
    assert.match(r.tooltip, /Session: Docs \\\[run me\\\]\\\(command\\:workbench/);
    assert.equal(r.text, "$(sparkle) Pi: M Docs [run me](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%5Cn%22%7D) \\$(zap) <b>x</b>");
  });
});

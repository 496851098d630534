import * as assert from "node:assert/strict";
import { Emitter } from "vscode-jsonrpc";
import type { PermissionMode } from "../../shared/protocol";
import type { AgentStatus } from "../../shared/webview-protocol";
import { PlanDecision } from "./plan-decision";

/** An agent's mode and status as AgentState reports them, changed by the test. */
function agent(permissionMode: PermissionMode | "none" = "plan") {
  const changed = new Emitter<void>();
  const session = new Emitter<void>();
  const source = { permissionMode: permissionMode === "none" ? undefined : permissionMode, status: "idle" as AgentStatus, lastRunAnswered: true, onDidChange: changed.event, onDidChangeSession: session.event };
  return {
    source,
    set(change: { permissionMode?: PermissionMode; status?: AgentStatus; lastRunAnswered?: boolean }) {
      Object.assign(source, change);
      changed.fire();
    },
    newSession: () => session.fire(),
  };
}

describe("PlanDecision (Approve plan / Keep planning offered in the chat)", () => {
  it("is offered once the agent in plan mode has answered, and taken back when the mode is left", () => {
    const a = agent();
    const decision = new PlanDecision(a.source);
    let changes = 0;
    decision.onDidChange(() => changes++);
    assert.equal(decision.awaitingApproval, false, "not before any answer");
    a.set({ status: "running" });
    assert.equal(decision.awaitingApproval, false, "not while it runs");
    a.set({ status: "idle" });
    assert.equal(decision.awaitingApproval, true);
    a.set({ permissionMode: "acceptEdits" });
    assert.equal(decision.awaitingApproval, false, "approved: gone");
    a.set({ permissionMode: "plan" });
    assert.equal(decision.awaitingApproval, false, "back in plan mode: waits for the next answer");
    assert.equal(changes, 2, "one change each way");
  });

  it("waits for the next answer after Keep planning and after the session changed", () => {
    const a = agent();
    const decision = new PlanDecision(a.source);
    a.set({ status: "running" });
    a.set({ status: "idle" });
    decision.keepPlanning();
    assert.equal(decision.awaitingApproval, false);
    a.set({ status: "running" });
    a.set({ status: "idle" });
    assert.equal(decision.awaitingApproval, true, "the revised plan");
    a.newSession();
    assert.equal(decision.awaitingApproval, false, "another session's plan is not this answer");
  });

  it("is not offered after a crash, in other modes, or for agents without permission modes", () => {
    const crashed = agent();
    const decision = new PlanDecision(crashed.source);
    crashed.set({ status: "running" });
    crashed.set({ status: "crashed" });
    crashed.set({ status: "starting" });
    crashed.set({ status: "idle" });
    assert.equal(decision.awaitingApproval, false, "a crash is no answer");
    for (const mode of ["ask", "acceptEdits", "auto", "none"] as const) {
      const other = agent(mode);
      const d = new PlanDecision(other.source);
      other.set({ status: "running" });
      other.set({ status: "idle" });
      assert.equal(d.awaitingApproval, false, String(mode));
    }
  });

  it("is not offered for a plan the run did not finish: aborted, failed or cut short; nor after a revision crashed", () => {
    const a = agent();
    const decision = new PlanDecision(a.source);
    a.set({ status: "running", lastRunAnswered: false });
    a.set({ status: "idle" });
    assert.equal(decision.awaitingApproval, false, "an aborted run is no answer");
    a.set({ status: "running", lastRunAnswered: true });
    a.set({ status: "idle" });
    assert.equal(decision.awaitingApproval, true, "a finished answer is");
    // The user asks for more without choosing; the run crashes: the old answer is not offered again.
    a.set({ status: "running", lastRunAnswered: false });
    a.set({ status: "crashed" });
    a.set({ status: "starting" });
    a.set({ status: "idle" });
    assert.equal(decision.awaitingApproval, false, "the revision never finished");
  });
});

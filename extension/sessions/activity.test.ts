import * as assert from "node:assert/strict";
import { runOutcome, sessionActivity, summarizeActivities } from "./activity";

const assistant = (stopReason: "stop" | "error" | "aborted" | "toolUse") => ({
  role: "assistant" as const,
  content: [],
  api: "openai-completions",
  provider: "mock",
  model: "m",
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  stopReason,
  timestamp: 0,
});

describe("session activity", () => {
  it("puts a pending dialog before everything else", () => {
    assert.equal(sessionActivity({ status: "running", openDialogs: 1, lastRun: undefined, seen: true }), "waiting");
    assert.equal(sessionActivity({ status: "idle", openDialogs: 2, lastRun: "done", seen: true }), "waiting");
  });

  it("says done or failed until the user has seen the session, then idle", () => {
    assert.equal(sessionActivity({ status: "idle", openDialogs: 0, lastRun: "done", seen: false }), "done");
    assert.equal(sessionActivity({ status: "idle", openDialogs: 0, lastRun: "failed", seen: false }), "failed");
    assert.equal(sessionActivity({ status: "idle", openDialogs: 0, lastRun: "done", seen: true }), "idle");
    assert.equal(sessionActivity({ status: "idle", openDialogs: 0, lastRun: undefined, seen: false }), "idle");
  });

  it("maps the agent's process status", () => {
    assert.equal(sessionActivity({ status: "crashed", openDialogs: 0, lastRun: undefined, seen: true }), "failed");
    assert.equal(sessionActivity({ status: "starting", openDialogs: 0, lastRun: undefined, seen: true }), "starting");
    assert.equal(sessionActivity({ status: "stopped", openDialogs: 0, lastRun: "done", seen: false }), "stopped");
    assert.equal(sessionActivity({ status: "running", openDialogs: 0, lastRun: undefined, seen: true }), "running");
  });

  it("reads a run's outcome from the last assistant message of agent_end", () => {
    const end = (...messages: ReturnType<typeof assistant>[]) => ({ type: "agent_end" as const, messages });
    assert.equal(runOutcome(end(assistant("toolUse"), assistant("stop"))), "done");
    assert.equal(runOutcome(end(assistant("stop"), assistant("error"))), "failed");
    assert.equal(runOutcome(end(assistant("aborted"))), "aborted");
    assert.equal(runOutcome(end()), "done");
  });

  it("summarizes the activities worth a glance", () => {
    assert.equal(summarizeActivities(["running", "running", "waiting", "idle", "done"]), "$(sync~spin) 2 $(bell-dot) 1 $(check) 1");
    assert.equal(summarizeActivities(["idle", "stopped"]), "");
  });
});

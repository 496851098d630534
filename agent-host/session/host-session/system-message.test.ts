import { strict as assert } from "node:assert";
import type { AgentMessage } from "../../../shared/protocol";
import { currentSystemMessage } from "../compaction";
import { systemMessageUpdate } from "./system-message";

const read = { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } };
const bash = { name: "bash", description: "Run a command", parameters: { type: "object", properties: { command: { type: "string" } } } };
const sections = { preamble: "You help.", cwd: "<cwd>\n/w\n</cwd>" };

describe("systemMessageUpdate", () => {
  it("declares the whole prompt and tool set when the transcript has no system message", () => {
    const message = systemMessageUpdate([], sections, [read, bash]);
    assert.ok(message);
    assert.deepEqual({ ...message, timestamp: 0 }, { role: "system", content: "", sections, toolsAdded: [read, bash], timestamp: 0 });
  });

  it("says nothing when prompt and tools are what the transcript declares", () => {
    const first = systemMessageUpdate([], sections, [read, bash])!;
    assert.equal(systemMessageUpdate([first, { role: "user", content: "hi", timestamp: 1 }], sections, [read, bash]), undefined);
  });

  it("patches changed and removed sections and changed tools, so that replaying gives the current state", () => {
    const first = systemMessageUpdate([], { ...sections, docs: "<docs>\npi docs\n</docs>" }, [read, bash])!;
    const changedBash = { ...bash, description: "Run a shell command" };
    const patch = systemMessageUpdate([first], { ...sections, cwd: "<cwd>\n/other\n</cwd>" }, [changedBash]);
    assert.ok(patch);
    assert.deepEqual(patch.sections, { cwd: "<cwd>\n/other\n</cwd>", docs: null });
    assert.deepEqual(patch.toolsAdded, [changedBash]);
    assert.deepEqual(patch.toolsRemoved, [{ name: "read" }, { name: "bash" }]);
    const replayed = currentSystemMessage([first, patch] as AgentMessage[])!;
    assert.deepEqual(replayed.sections, { preamble: "You help.", cwd: "<cwd>\n/other\n</cwd>" });
    assert.deepEqual(replayed.toolsAdded, [changedBash]);
  });
});

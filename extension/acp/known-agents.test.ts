import { strict as assert } from "node:assert";
import { knownAgentOf, protocolOf } from "./known-agents";

describe("ACP agents known by their command", () => {
  it("auto: the known ACP agents speak ACP, every other command Pi RPC", () => {
    assert.equal(protocolOf("auto", "gemini", ["--acp"]), "acp");
    assert.equal(protocolOf("auto", "/usr/local/bin/gemini", ["--experimental-acp"]), "acp");
    assert.equal(protocolOf("auto", "gemini", []), "pi-rpc", "gemini without --acp is its terminal UI, not ACP");
    assert.equal(protocolOf("auto", "opencode", ["acp", "--pure"]), "acp");
    assert.equal(protocolOf("auto", "opencode", ["run"]), "pi-rpc");
    assert.equal(protocolOf("auto", "C:\\tools\\codex-acp.exe", []), "acp");
    assert.equal(protocolOf("auto", "claude-agent-acp", []), "acp");
    assert.equal(protocolOf("auto", "node", ["/x/bundle/gemini.js", "--acp"]), "acp", "a script run by node is the agent");
    assert.equal(protocolOf("auto", "pi", []), "pi-rpc");
    assert.equal(protocolOf("auto", "", []), "pi-rpc");
  });

  it("the setting wins over detection", () => {
    assert.equal(protocolOf("acp", "my-agent", []), "acp");
    assert.equal(protocolOf("pi-rpc", "gemini", ["--acp"]), "pi-rpc");
  });

  it("names the agent for the header", () => {
    assert.equal(knownAgentOf("opencode", ["acp"])?.label, "OpenCode");
    assert.equal(knownAgentOf("omp", []), undefined);
  });
});

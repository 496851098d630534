import { strict as assert } from "node:assert";
import { signOutReport } from "./acp-sign-out";

describe("ACP sign-out: what the command says it did, and what it cannot clear", () => {
  it("logged out over ACP: said so; a gateway token or key given this run still ends only with the process", () => {
    const done = signOutReport({ agentName: "Agent", loggedOut: true, given: { kind: "agent", method: "Own" } });
    assert.match(done.message, /Signed out of Agent/);
    assert.equal(done.restart, false);
    const gateway = signOutReport({ agentName: "Agent", loggedOut: true, given: { kind: "gateway", method: "Gateway", variable: "GEMINI_API_KEY" } });
    assert.equal(gateway.restart, true);
    assert.match(gateway.detail, /token .*Restart Agent/);
  });

  it("no logout: says the agent offers none and what stays, for each way it was signed in", () => {
    const gateway = signOutReport({ agentName: "Gemini CLI", loggedOut: false, given: { kind: "gateway", method: "AI API Gateway", variable: "GEMINI_API_KEY" } }, "Gemini CLI records the method chosen in ~/.gemini/settings.json (security.auth.selectedType)");
    assert.match(gateway.message, /Gemini CLI offers no sign-out over ACP/);
    assert.match(gateway.detail, /token of Pi's model gateway/);
    assert.match(gateway.detail, /GEMINI_API_KEY stays in the editor/);
    assert.match(gateway.detail, /security\.auth\.selectedType/);
    assert.equal(gateway.restart, true);
    const key = signOutReport({ agentName: "A", loggedOut: false, given: { kind: "api-key", method: "Key", variable: "OPENAI_API_KEY" } });
    assert.match(key.detail, /holds your stored OPENAI_API_KEY in memory/);
    assert.equal(key.restart, true);
    const terminal = signOutReport({ agentName: "A", loggedOut: false, given: { kind: "terminal", method: "Log in", command: "claude /login" } });
    assert.match(terminal.detail, /claude \/login/);
    assert.match(terminal.detail, /its own/);
    assert.equal(terminal.restart, false);
    const none = signOutReport({ agentName: "A", loggedOut: false });
    assert.match(none.detail, /did not sign A in/);
    assert.equal(none.restart, false);
  });

  it("foreign names stay text: the agent's and the method's names escaped, no link", () => {
    const report = signOutReport({ agentName: "Evil](command:x)\u202e", loggedOut: false, given: { kind: "agent", method: "M\n[x](https://e)" } });
    for (const text of [report.message, report.detail]) {
      assert.doesNotMatch(text, /\]\(/, "no link");
      assert.doesNotMatch(text, /\u202e/, "no bidi override");
    }
    assert.ok(report.detail.includes("M↵[x] (https://e)"), report.detail);
  });
});

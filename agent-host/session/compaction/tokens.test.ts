import { strict as assert } from "node:assert";
import type { AgentMessage } from "../../../shared/protocol";
import { shouldAutoCompact } from "./compact";
import { projectBranch } from "./projection";
import { estimateContextTokens, estimateProjectedTokens, estimateTokens } from "./tokens";
import { assistant, call, result, sessionWith, sized, usage, user } from "../../../test/fixtures/host/compaction";

describe("compaction token estimates", () => {
  it("counts chars/4, rounded up, for every kind of message", () => {
    assert.equal(estimateTokens(user("abcde")), 2);
    assert.equal(estimateTokens({ role: "user", content: "abcd", timestamp: 0 }), 1);
    assert.equal(estimateTokens({ role: "user", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }], timestamp: 0 }), 1200);
    const args = { path: "a.ts" };
    assert.equal(estimateTokens(assistant("", { calls: [call("c1", "read", args)] })), Math.ceil(("read".length + JSON.stringify(args).length) / 4));
    assert.equal(estimateTokens({ ...assistant("12345678"), content: [{ type: "thinking", thinking: "1234" }, { type: "text", text: "12345678" }] }), 3);
    assert.equal(estimateTokens(result("c1", "read", sized(10))), 10);
    assert.equal(estimateTokens({ role: "bashExecution", command: "ls", output: "a\nb", cancelled: false, truncated: false, timestamp: 0 }), 2);
    assert.equal(estimateTokens({ role: "compactionSummary", summary: sized(7), tokensBefore: 1, timestamp: 0 }), 7);
    assert.equal(estimateTokens({ role: "branchSummary", summary: sized(3), fromId: null, timestamp: 0 }), 3);
    const tools = [{ name: "read" }];
    const system: AgentMessage = { role: "system", content: "abcd", sections: { a: "1234", gone: null }, toolsAdded: tools, timestamp: 0 };
    assert.equal(estimateTokens(system), Math.ceil((8 + JSON.stringify(tools).length) / 4));
  });

  it("takes the last completed reply's usage and estimates only what came after it", () => {
    const messages = [user(sized(1000)), assistant("ok", { usage: usage(900, 100) }), user(sized(5)), assistant("x", { usage: usage(50, 50), stopReason: "aborted" }), result("c", "t", sized(3))];
    const estimate = estimateContextTokens(messages);
    assert.equal(estimate.lastUsageIndex, 1);
    assert.equal(estimate.usageTokens, 1000);
    assert.equal(estimate.trailingTokens, 5 + 1 + 3);
    assert.equal(estimate.tokens, 1009);
  });

  it("ignores replies that failed or reported nothing, and estimates everything without usage", () => {
    const messages = [user(sized(10)), assistant(sized(2), { usage: usage(500, 10), stopReason: "error" }), assistant(sized(2), { usage: usage() })];
    assert.deepEqual(estimateContextTokens(messages), { tokens: 14, usageTokens: 0, trailingTokens: 14, lastUsageIndex: null });
  });

  it("does not trust a usage reported before the latest compaction on the branch", () => {
    const { session, ids } = sessionWith([user(sized(100)), assistant("a", { usage: usage(5000, 10) }), user(sized(20)), assistant("b", { usage: usage(6000, 10) })]);
    assert.equal(estimateProjectedTokens(projectBranch(session.branch()), session.branch()), 6010);
    session.append({ type: "compaction", summary: sized(30), firstKeptEntryId: ids[2], tokensBefore: 6010 });
    // summary 30 + kept user 20 + kept assistant "b" 1 (its usage predates the compaction)
    assert.equal(estimateProjectedTokens(projectBranch(session.branch()), session.branch()), 51);
    session.appendMessage(user("next"));
    session.appendMessage(assistant("c", { usage: usage(70, 5) }));
    assert.equal(estimateProjectedTokens(projectBranch(session.branch()), session.branch()), 75);
  });

  it("auto-compacts only above contextWindow − reserveTokens, when enabled", () => {
    const settings = { enabled: true, reserveTokens: 16384 };
    assert.equal(shouldAutoCompact(128_000 - 16384, 128_000, settings), false);
    assert.equal(shouldAutoCompact(128_000 - 16383, 128_000, settings), true);
    assert.equal(shouldAutoCompact(200_000, 128_000, { ...settings, enabled: false }), false);
    assert.equal(shouldAutoCompact(200_000, 0, settings), false, "an unknown context window never triggers");
  });
});

import { strict as assert } from "node:assert";
import type { AgentMessage } from "../../../shared/protocol";
import { DEFAULT_COMPACTION_SETTINGS, prepareCompaction, type CompactionPreparation } from "./cut-point";
import { assistant, call, result, sessionWith, sized, usage, user } from "../../../test/fixtures/host/compaction";

const settings = (keepRecentTokens: number) => ({ ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens });
const texts = (messages: AgentMessage[]) =>
  messages.map((m) => (m.role === "toolResult" ? `result:${m.toolCallId}` : m.role === "assistant" ? `assistant:${m.content.map((b) => (b.type === "toolCall" ? b.id : b.type === "text" ? b.text.slice(0, 3) : "")).join("")}` : m.role === "user" && typeof m.content !== "string" && m.content[0].type === "text" ? `user:${m.content[0].text.slice(0, 3)}` : m.role));

describe("compaction cut point", () => {
  it("refuses a session that fits in keepRecentTokens (pi's default 20000)", () => {
    const { session } = sessionWith([user("hi"), assistant("hello", { usage: usage(10, 5) }), user("bye"), assistant("ciao")]);
    assert.equal(prepareCompaction(session.branch(), DEFAULT_COMPACTION_SETTINGS), undefined);
    assert.equal(prepareCompaction([], DEFAULT_COMPACTION_SETTINGS), undefined);
  });

  it("cuts at a user message once the recent turns reach keepRecentTokens", () => {
    const { session, ids } = sessionWith([user(`u1${sized(99)}`), assistant(sized(100)), user(`u2${sized(99)}`), assistant(sized(100)), user(`u3${sized(99)}`), assistant(sized(100))]);
    const prep = prepareCompaction(session.branch(), settings(350))!;
    assert.equal(prep.firstKeptEntryId, ids[2], "u2 and later are kept: 400 tokens ≥ 350, while from u3 on only 200");
    assert.equal(prep.isSplitTurn, false);
    assert.deepEqual(texts(prep.messagesToSummarize), ["user:u1x", "assistant:xxx"]);
    assert.deepEqual(prep.turnPrefixMessages, []);
    assert.equal(prep.tokensBefore, 600);
  });

  it("splits a turn longer than keepRecentTokens at an assistant message and summarizes its prefix apart", () => {
    const { session, ids } = sessionWith([
      user(`u1${sized(49)}`), assistant(sized(50)),
      user(`u2${sized(9)}`), assistant("", { calls: [call("c1", "read", { path: "a.ts" })] }), result("c1", "read", sized(200)),
      assistant("", { calls: [call("c2", "edit", { path: "b.ts", oldText: "x", newText: "y" })] }), result("c2", "edit", sized(200)),
      assistant(`end${sized(10)}`),
    ]);
    const prep = prepareCompaction(session.branch(), settings(300))!;
    // Walking back: end 11, result c2 200, call c2, then result c1 crosses 300; the nearest valid cut at or after it is the c2 call.
    assert.equal(prep.firstKeptEntryId, ids[5]);
    assert.equal(prep.isSplitTurn, true);
    assert.deepEqual(texts(prep.messagesToSummarize), ["user:u1x", "assistant:xxx"]);
    assert.deepEqual(texts(prep.turnPrefixMessages), ["user:u2x", "assistant:c1", "result:c1"]);
    assert.deepEqual([...prep.fileOps.read], ["a.ts"], "file operations come from the summarized part only");
    assert.deepEqual([...prep.fileOps.edited], []);
  });

  it("never separates a tool call from its result, whatever keepRecentTokens is", () => {
    const history: AgentMessage[] = [
      user(sized(30)),
      assistant("", { calls: [call("p1", "read", { path: "a" }), call("p2", "read", { path: "b" })] }),
      result("p1", "read", sized(120)),
      { role: "custom", customType: "note", content: sized(40), display: true, timestamp: 4 }, // an extension message arriving between two results
      result("p2", "read", sized(80)),
      assistant(sized(20), { calls: [call("q1", "bash", { command: "ls" })] }),
      result("q1", "bash", sized(300)),
      user(sized(25)),
      assistant(sized(60), { calls: [call("r1", "write", { path: "c", content: sized(10) })] }),
      result("r1", "write", sized(5)),
      assistant(sized(15)),
    ];
    const { session } = sessionWith(history);
    const kept = (prep: CompactionPreparation) => history.slice(history.length - (history.length - prep.messagesToSummarize.length - prep.turnPrefixMessages.length));
    let cuts = 0;
    for (let keep = 1; keep <= 800; keep += 7) {
      const prep = prepareCompaction(session.branch(), settings(keep));
      if (!prep) continue;
      cuts++;
      const keptMessages = kept(prep);
      const summarized = [...prep.messagesToSummarize, ...prep.turnPrefixMessages];
      const callsIn = (ms: AgentMessage[]) => new Set(ms.flatMap((m) => (m.role === "assistant" ? m.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : [])) : [])));
      const resultsIn = (ms: AgentMessage[]) => new Set(ms.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : [])));
      for (const id of resultsIn(keptMessages)) assert.ok(callsIn(keptMessages).has(id), `keep=${keep}: kept result ${id} without its call`);
      for (const id of callsIn(summarized)) assert.ok(resultsIn(summarized).has(id), `keep=${keep}: summarized call ${id} without its result`);
      assert.notEqual(keptMessages[0]?.role, "toolResult");
      assert.notEqual(keptMessages[0]?.role, "custom", `keep=${keep}: the message between p1's and p2's results is no cut point`);
    }
    assert.ok(cuts > 5, `several different cuts were checked (${cuts})`);
  });

  it("keeps context-free entries just before the cut with it, and does not call that a split turn", () => {
    const { session } = sessionWith([user(`u1${sized(99)}`), assistant(sized(100))]);
    const change = session.append({ type: "model_change", provider: "faux", modelId: "other" });
    session.appendMessage(user(`u2${sized(99)}`));
    session.appendMessage(assistant(sized(100)));
    const prep = prepareCompaction(session.branch(), settings(200))!;
    assert.equal(prep.firstKeptEntryId, change.id);
    assert.equal(prep.isSplitTurn, false);
    assert.deepEqual(texts(prep.messagesToSummarize), ["user:u1x", "assistant:xxx"]);
  });

  it("refuses to compact again right after a compaction", () => {
    const { session, ids } = sessionWith([user(sized(100)), assistant(sized(100)), user(sized(100)), assistant(sized(100))]);
    session.append({ type: "compaction", summary: "s", firstKeptEntryId: ids[2], tokensBefore: 400 });
    assert.equal(prepareCompaction(session.branch(), settings(1)), undefined);
  });

  it("after a compaction, summarizes its kept range with what followed, and updates the previous summary", () => {
    const { session, ids } = sessionWith([user(`u1${sized(99)}`), assistant(sized(100)), user(`u2${sized(99)}`), assistant("", { calls: [call("e", "edit", { path: "new.ts" })] }), result("e", "edit", "ok")]);
    session.append({ type: "compaction", summary: "## Goal\nold", firstKeptEntryId: ids[2], tokensBefore: 400, details: { readFiles: ["old-read.ts", "new.ts"], modifiedFiles: ["old-mod.ts"] } });
    const u3 = session.appendMessage(user(`u3${sized(99)}`));
    session.appendMessage(assistant(sized(100)));
    const prep = prepareCompaction(session.branch(), settings(150))!;
    assert.equal(prep.firstKeptEntryId, u3.id);
    assert.equal(prep.previousSummary, "## Goal\nold");
    assert.deepEqual(texts(prep.messagesToSummarize), ["user:u2x", "assistant:e", "result:e"], "starts at the previous kept boundary, not at the summary");
    assert.deepEqual([...prep.fileOps.read].sort(), ["new.ts", "old-read.ts"]);
    assert.deepEqual([...prep.fileOps.edited].sort(), ["new.ts", "old-mod.ts"]);
  });

  it("does not carry file lists from an extension's compaction", () => {
    const { session, ids } = sessionWith([user(sized(100)), assistant(sized(100)), user(sized(100)), assistant(sized(100))]);
    session.append({ type: "compaction", summary: "ext", firstKeptEntryId: ids[2], tokensBefore: 400, fromHook: true, details: { readFiles: ["x.ts"], modifiedFiles: [] } });
    session.appendMessage(user(sized(100)));
    session.appendMessage(assistant(sized(100)));
    const prep = prepareCompaction(session.branch(), settings(150))!;
    assert.deepEqual([...prep.fileOps.read], []);
  });

  it("moves the cut past an input whose failed attempt was omitted (overflow recovery), summarizing that input", () => {
    const { session } = sessionWith([user(`u1${sized(99)}`), assistant(sized(100)), user(`u2${sized(399)}`)]);
    const attempt = session.appendMessage(assistant("", { stopReason: "error" }));
    session.append({ type: "context_edit", targetId: attempt.id, replacement: null });
    const prep = prepareCompaction(session.branch(), settings(300))!;
    assert.equal(prep.firstKeptEntryId, attempt.id);
    assert.equal(prep.isSplitTurn, true);
    assert.deepEqual(texts(prep.messagesToSummarize), ["user:u1x", "assistant:xxx"]);
    assert.deepEqual(texts(prep.turnPrefixMessages), ["user:u2x"]);
  });
});

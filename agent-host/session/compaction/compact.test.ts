import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "../../../shared/protocol";
import type { CompactionEntry } from "../../../shared/session-format/schema";
import { SessionManager } from "../persistence/session-manager";
import { ALREADY_COMPACTED, compact, CompactionCancelledError, NOTHING_TO_COMPACT } from "./compact";
import { estimateMessagesTokens } from "./tokens";
import { TURN_PREFIX_HEADING } from "./summarize";
import { assistant, call, fauxModel, result, roles, sessionWith, sized, usage, user } from "../../../test/fixtures/host/compaction";

/** Three turns of 200 tokens each; the second reads and edits files. */
function history(): AgentMessage[] {
  return [
    user(`first${sized(99)}`),
    assistant(sized(100), { usage: usage(120, 100) }),
    user(`second${sized(90)}`),
    assistant("", { calls: [call("r", "read", { path: "src/a.ts" }), call("w", "write", { path: "src/b.ts", content: "b" })] }),
    result("r", "read", "a"),
    result("w", "write", "ok"),
    assistant("", { calls: [call("e", "edit", { path: "src/a.ts", oldText: "a", newText: "A" })] }),
    result("e", "edit", "ok"),
    assistant(`done${sized(90)}`, { usage: usage(400, 100) }),
    user(`third${sized(99)}`),
    assistant(sized(100), { usage: usage(700, 100) }),
  ];
}

describe("compact()", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "compaction-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a session too small to compact, with pi's words, and changes nothing", async () => {
    const { session } = sessionWith([user("hi"), assistant("hello")], dir);
    const { model, requests } = fauxModel([{ text: "never" }]);
    const before = readFileSync(session.sessionFile!, "utf8");
    await assert.rejects(compact(session, model), { message: NOTHING_TO_COMPACT });
    assert.equal(NOTHING_TO_COMPACT, "Nothing to compact (session too small)");
    assert.equal(requests.length, 0);
    assert.equal(readFileSync(session.sessionFile!, "utf8"), before);
  });

  it("appends a compaction entry whose context is [compactionSummary, kept messages…], on disk too", async () => {
    const { session, ids } = sessionWith(history(), dir);
    const { model, requests } = fauxModel([{ text: "## Goal\nShip it", usage: { input: 300, output: 40 } }]);
    const outcome = await compact(session, model, { settings: { keepRecentTokens: 200 } });

    assert.equal(requests.length, 1);
    assert.ok(requests[0].prompt.includes("USER: first") && requests[0].prompt.includes("ASSISTANT (tool calls): read"));
    assert.ok(!requests[0].prompt.includes("USER: third"), "kept messages are not summarized");
    assert.equal(outcome.firstKeptEntryId, ids[9]);
    assert.equal(outcome.tokensBefore, 800, "the last reply's usage: 700 + 100");
    assert.deepEqual(outcome.details, { readFiles: [], modifiedFiles: ["src/a.ts", "src/b.ts"] });
    assert.equal(outcome.summary, "## Goal\nShip it\n\n<modified-files>\nsrc/a.ts\nsrc/b.ts\n</modified-files>");
    assert.equal(outcome.usage?.input, 300);

    const entry = session.get(session.leafId!) as CompactionEntry;
    assert.equal(entry.type, "compaction");
    assert.equal(entry.parentId, ids[10]);
    assert.deepEqual(
      { summary: entry.summary, firstKeptEntryId: entry.firstKeptEntryId, tokensBefore: entry.tokensBefore, details: entry.details, fromHook: entry.fromHook },
      { summary: outcome.summary, firstKeptEntryId: ids[9], tokensBefore: 800, details: outcome.details, fromHook: false },
    );
    assert.equal(entry.systemMessage, undefined, "no system prompt on the branch, so no checkpoint");
    const context = session.context().messages;
    assert.deepEqual(roles(context), ["summary:## Goal", "user:thirdxxxxxxx", "assistant"]);
    assert.equal(outcome.estimatedTokensAfter, estimateMessagesTokens(context));

    const reopened = new SessionManager({ cwd: "/w", sessionDir: dir });
    reopened.open(session.sessionFile!);
    assert.deepEqual(reopened.context().messages, context);
    const lastLine = JSON.parse(readFileSync(session.sessionFile!, "utf8").trim().split("\n").at(-1)!) as Record<string, unknown>;
    assert.equal(lastLine.type, "compaction");
    assert.equal(lastLine.firstKeptEntryId, ids[9]);
  });

  it("refuses to compact twice in a row", async () => {
    const { session } = sessionWith(history());
    await compact(session, fauxModel([{ text: "one" }]).model, { settings: { keepRecentTokens: 200 } });
    await assert.rejects(compact(session, fauxModel([{ text: "two" }]).model, { settings: { keepRecentTokens: 1 } }), { message: ALREADY_COMPACTED });
  });

  it("updates the previous summary next time: custom instructions, earlier summary without its file lists, cumulative files", async () => {
    const { session } = sessionWith(history());
    await compact(session, fauxModel([{ text: "## Goal\nFirst" }]).model, { settings: { keepRecentTokens: 200 } });
    session.appendMessage(assistant("", { calls: [call("r2", "read", { path: "docs/x.md" })] }));
    session.appendMessage(result("r2", "read", "x"));
    session.appendMessage(user(`fourth${sized(200)}`));
    session.appendMessage(assistant(sized(100)));
    const { model, requests } = fauxModel([{ text: "## Goal\nSecond" }]);
    const outcome = await compact(session, model, { settings: { keepRecentTokens: 250 }, customInstructions: "keep the API names" });

    const prompt = requests[0].prompt;
    assert.ok(prompt.includes("<earlier-summary>\n## Goal\nFirst\n</earlier-summary>"), "file lists are rebuilt, not fed back");
    assert.ok(prompt.includes("USER: third"), "the earlier kept turn is summarized now");
    assert.ok(prompt.endsWith("focus on: keep the API names"));
    assert.deepEqual(outcome.details, { readFiles: ["docs/x.md"], modifiedFiles: ["src/a.ts", "src/b.ts"] });
    assert.deepEqual(roles(session.context().messages), ["summary:## Goal", "user:fourthxxxxxx", "assistant"]);
  });

  it("leaves the session untouched when aborted mid-summary", async () => {
    const { session } = sessionWith(history(), dir);
    const entriesBefore = session.allEntries().length;
    const leafBefore = session.leafId;
    const fileBefore = readFileSync(session.sessionFile!, "utf8");
    let started!: () => void;
    const requestSent = new Promise<void>((resolve) => (started = resolve));
    const { model } = fauxModel(() => (started(), { hang: true }));
    const controller = new AbortController();
    const running = compact(session, model, { settings: { keepRecentTokens: 200 }, signal: controller.signal });
    await requestSent;
    controller.abort();
    await assert.rejects(running, CompactionCancelledError);
    assert.equal(session.allEntries().length, entriesBefore);
    assert.equal(session.leafId, leafBefore);
    assert.equal(readFileSync(session.sessionFile!, "utf8"), fileBefore);
  });

  it("leaves the session untouched when the summary request fails", async () => {
    const { session } = sessionWith(history());
    const count = session.allEntries().length;
    await assert.rejects(compact(session, fauxModel([{ error: "401 invalid x-api-key" }]).model, { settings: { keepRecentTokens: 200 } }), {
      message: "Summarization failed: 401 invalid x-api-key",
    });
    assert.equal(session.allEntries().length, count);
  });

  it("checkpoints the system prompt and tools in force; the context then starts with it", async () => {
    const session = new SessionManager({ cwd: "/w" });
    session.appendMessage({ role: "system", content: "You are helpful.", sections: { tools: "read, bash", cwd: "/w" }, toolsAdded: [{ name: "read" }, { name: "bash" }], timestamp: 1 });
    for (const m of history()) session.appendMessage(m);
    session.appendMessage({ role: "system", content: "", sections: { cwd: null }, toolsRemoved: [{ name: "bash" }], timestamp: 9 });
    session.appendMessage(user(sized(50)));
    session.appendMessage(assistant(sized(50)));
    await compact(session, fauxModel([{ text: "## Goal\nSys" }]).model, { settings: { keepRecentTokens: 100 } });

    const entry = session.get(session.leafId!) as CompactionEntry;
    assert.ok(entry.systemMessage?.role === "system");
    assert.equal(entry.systemMessage.content, "You are helpful.");
    assert.deepEqual(entry.systemMessage.sections, { tools: "read, bash" });
    assert.deepEqual(entry.systemMessage.toolsAdded, [{ name: "read" }]);
    const context = session.context().messages;
    assert.deepEqual(roles(context), ["system", "summary:## Goal", "user:xxxxxxxxxxxx", "assistant"]);
  });

  it("summarizes a split turn in two requests joined under one heading", async () => {
    const { session } = sessionWith([
      user(`old${sized(100)}`),
      assistant(sized(100)),
      user(`long task${sized(10)}`),
      assistant("", { calls: [call("a", "read", { path: "big.txt" })] }),
      result("a", "read", sized(400)),
      assistant("", { calls: [call("b", "bash", { command: "make" })] }),
      result("b", "bash", sized(100)),
      assistant(sized(50)),
    ]);
    const { model, requests } = fauxModel([
      { text: "HISTORY", usage: { input: 10, output: 1 } },
      { text: "PREFIX", usage: { input: 20, output: 2 } },
    ]);
    const outcome = await compact(session, model, { settings: { keepRecentTokens: 200 } });
    assert.equal(requests.length, 2);
    assert.ok(requests[0].prompt.includes("USER: old") && !requests[0].prompt.includes("USER: long task"));
    assert.ok(requests[1].prompt.includes("USER: long task") && requests[1].prompt.includes("## Original Request"));
    assert.equal(outcome.summary, `HISTORY\n\n---\n\n${TURN_PREFIX_HEADING}\n\nPREFIX\n\n<read-files>\nbig.txt\n</read-files>`);
    assert.deepEqual([outcome.usage?.input, outcome.usage?.output, outcome.usage?.totalTokens], [30, 3, 33]);
    assert.deepEqual(roles(session.context().messages), ["summary:HISTORY", "assistant", "toolResult", "assistant"]);
  });
});

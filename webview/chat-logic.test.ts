import * as assert from "node:assert/strict";
import { editsOf, lineDiff, withContext } from "./diff";
import { formatCost, formatCountdown, formatDuration, formatTokens, toolSummary } from "./format";
import { composerAction, composerHint, transcriptAction, type KeyInfo } from "./keys";
import { acceptCommand, matchCommands, slashQuery } from "./slash";

const key = (k: string, mods: Partial<KeyInfo> = {}): KeyInfo => ({ key: k, shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, isComposing: false, ...mods });
const idle = { running: false, completionOpen: false, queueLength: 0 };
const running = { running: true, completionOpen: false, queueLength: 0 };

describe("chat webview logic", () => {
  describe("keys in the message box", () => {
    it("sends on Enter when idle and steers on Enter while running", () => {
      assert.equal(composerAction(key("Enter"), idle), "send");
      assert.equal(composerAction(key("Enter"), running), "steer");
    });
    it("queues a follow-up on Alt+Enter or Ctrl+Enter while running; Shift+Enter is a new line", () => {
      assert.equal(composerAction(key("Enter", { altKey: true }), running), "followUp");
      assert.equal(composerAction(key("Enter", { ctrlKey: true }), running), "followUp");
      assert.equal(composerAction(key("Enter", { metaKey: true }), idle), "send");
      assert.equal(composerAction(key("Enter", { shiftKey: true }), running), undefined);
      assert.equal(composerAction(key("Enter", { isComposing: true }), idle), undefined);
    });
    it("switches the permission mode on Alt+M (µ on a Mac keyboard), leaving Shift+Tab to move the focus", () => {
      assert.equal(composerAction(key("m", { altKey: true }), idle), "cycleMode");
      assert.equal(composerAction(key("µ", { altKey: true, code: "KeyM" }), running), "cycleMode");
      assert.equal(composerAction(key("m", { altKey: true, ctrlKey: true }), idle), undefined);
      assert.equal(composerAction(key("M", { altKey: true, shiftKey: true }), idle), undefined);
      assert.equal(composerAction(key("Tab", { shiftKey: true }), idle), undefined);
      assert.equal(composerAction(key("m"), idle), undefined);
    });
    it("restores the queue on Escape only when something is queued", () => {
      assert.equal(composerAction(key("Escape"), running), undefined);
      assert.equal(composerAction(key("Escape"), { ...running, queueLength: 2 }), "restoreQueue");
    });
    it("drives the completion list while it is open", () => {
      const open = { ...idle, completionOpen: true };
      assert.equal(composerAction(key("ArrowDown"), open), "completeNext");
      assert.equal(composerAction(key("ArrowUp"), open), "completePrevious");
      assert.equal(composerAction(key("Tab"), open), "completeAccept");
      assert.equal(composerAction(key("Enter"), open), "completeAccept");
      assert.equal(composerAction(key("Escape"), open), "completeClose");
      assert.equal(composerAction(key("ArrowDown"), idle), undefined);
    });
    it("hints at what the keys do", () => {
      assert.match(composerHint(false, 0).text, /Enter to send/);
      assert.match(composerHint(false, 0).title, /! ?cmd runs a shell command/);
      assert.equal(composerHint(true, 0).text, "Enter steers · Alt+Enter queues a follow-up");
      assert.match(composerHint(true, 1).text, /Esc/);
    });
  });

  describe("keys in the transcript", () => {
    it("moves between entries with the arrows, Home and End (also Ctrl+Home/End)", () => {
      assert.equal(transcriptAction(key("ArrowUp"), true), "previous");
      assert.equal(transcriptAction(key("ArrowDown"), true), "next");
      assert.equal(transcriptAction(key("Home"), true), "first");
      assert.equal(transcriptAction(key("End", { ctrlKey: true }), true), "last");
    });
    it("enters an entry's controls with Enter or F2 and leaves them with Escape", () => {
      assert.equal(transcriptAction(key("Enter"), true), "enter");
      assert.equal(transcriptAction(key("F2"), true), "enter");
      assert.equal(transcriptAction(key("Escape"), false), "exit");
      assert.equal(transcriptAction(key("Escape"), true), undefined);
    });
    it("leaves keys in controls, modified keys and IME composition alone", () => {
      assert.equal(transcriptAction(key("ArrowDown"), false), undefined);
      assert.equal(transcriptAction(key("Enter"), false), undefined);
      assert.equal(transcriptAction(key("ArrowUp", { altKey: true }), true), undefined);
      assert.equal(transcriptAction(key("ArrowDown", { shiftKey: true }), true), undefined);
      assert.equal(transcriptAction(key("ArrowDown", { ctrlKey: true }), true), undefined);
      assert.equal(transcriptAction(key("Enter", { isComposing: true }), true), undefined);
      assert.equal(transcriptAction(key("Tab"), true), undefined);
    });
  });

  describe("slash commands", () => {
    const commands = [
      { name: "ui-demo", description: "Walk through dialogs", source: "extension" },
      { name: "review", source: "prompt" },
      { name: "skill:demo", source: "skill" },
    ];
    it("finds the query while the caret is in the first word", () => {
      assert.equal(slashQuery("/ui", 3), "ui");
      assert.equal(slashQuery("/", 1), "");
      assert.equal(slashQuery("/ui-demo now", 12), undefined);
      assert.equal(slashQuery("hello /ui", 9), undefined);
    });
    it("lists prefix matches before substring matches", () => {
      assert.deepEqual(matchCommands("demo", commands).map((c) => c.name), ["ui-demo", "skill:demo"]);
      assert.deepEqual(matchCommands("", commands).length, 3);
      assert.deepEqual(matchCommands("re", commands).map((c) => c.name), ["review"]);
    });
    it("replaces the word with the accepted command", () => {
      assert.equal(acceptCommand("/ui", "ui-demo"), "/ui-demo ");
      assert.equal(acceptCommand("/ui rest", "ui-demo"), "/ui-demo rest");
    });
  });

  describe("line diff", () => {
    it("marks removed and added lines around the unchanged ones", () => {
      const diff = lineDiff("a\nb\nc\nd", "a\nB\nc\nd\ne");
      assert.deepEqual(diff.map((l) => `${l.op}${l.text}`), [" a", "-b", "+B", " c", " d", "+e"]);
    });
    it("collapses long unchanged runs", () => {
      const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
      const after = before.replace("line 10", "LINE 10");
      const shown = withContext(lineDiff(before, after), 2).map((l) => `${l.op}${l.text}`);
      assert.deepEqual(shown, ["…8 unchanged lines", " line 8", " line 9", "-line 10", "+LINE 10", " line 11", " line 12", "…7 unchanged lines"]);
    });
    it("handles empty sides and reads edit arguments in both shapes", () => {
      assert.deepEqual(lineDiff("", "x\ny\n").map((l) => l.op), ["+", "+"]);
      assert.deepEqual(editsOf({ path: "a", edits: [{ oldText: "a", newText: "b" }] }), [{ oldText: "a", newText: "b" }]);
      assert.deepEqual(editsOf({ path: "a", oldText: "x", newText: "y" }), [{ oldText: "x", newText: "y" }]);
      assert.deepEqual(editsOf({ path: "a", edits: "nope" }), []);
    });
  });

  describe("formatting", () => {
    it("formats tokens, cost, durations and countdowns", () => {
      assert.deepEqual([0, 999, 1234, 12_345, 1_250_000].map(formatTokens), ["0", "999", "1.2k", "12k", "1.3M"]);
      assert.deepEqual([0, 0.0042, 1.234].map(formatCost), ["$0.00", "$0.0042", "$1.23"]);
      assert.deepEqual([42, 1500, 125_000].map(formatDuration), ["42 ms", "1.5 s", "2m 05s"]);
      assert.equal(formatCountdown(4100), "5 s");
      assert.equal(formatCountdown(-10), "0 s");
    });
    it("summarizes tool calls by what matters", () => {
      assert.equal(toolSummary("bash", { command: "echo hi" }), "echo hi");
      assert.equal(toolSummary("read", { path: "src/a.ts", offset: 10, limit: 5 }), "src/a.ts:10-14");
      assert.equal(toolSummary("edit", { path: "src/a.ts", edits: [] }), "src/a.ts");
      assert.equal(toolSummary("grep", { pattern: "TODO", path: "src" }), "TODO in src");
      assert.equal(toolSummary("custom", { a: 1, b: "two" }), '{"a":1,"b":"two"}');
    });
    it("titles the plan tool's call by its tasks, never its JSON; a malformed one falls back", () => {
      const task = (status: string) => ({ content: "x", status });
      assert.equal(toolSummary("todo", { phases: [{ name: "A", tasks: [task("completed"), task("pending")] }, { name: "B", tasks: [task("in_progress")] }] }), "Plan: 3 tasks (1 done)");
      assert.equal(toolSummary("todo", { phases: [{ name: "A", tasks: [task("pending")] }] }), "Plan: 1 task");
      assert.equal(toolSummary("todo_write", { todos: [task("completed"), task("completed")] }), "Plan: 2 tasks (2 done)");
      assert.equal(toolSummary("todo", { phases: [null, 3, { tasks: "no" }, { tasks: [null, 7] }] }), "Plan: 2 tasks");
      // omp's operations.
      assert.equal(toolSummary("todo", { op: "init", list: [{ phase: "A", items: ["a", "b"] }, { phase: "B", items: ["c"] }] }), "Plan: 3 tasks");
      assert.equal(toolSummary("todo", { op: "done", task: "Run the tests" }), "Plan: done Run the tests");
      assert.equal(toolSummary("todo", { op: "append", phase: "B", items: ["d"] }), "Plan: append 1 task");
      assert.equal(toolSummary("todo", { op: "view" }), "Plan: view");
      assert.equal(toolSummary("todo", { other: "x" }), '{"other":"x"}');
    });
    it("titles a patch-form edit (omp's hashline, apply_patch) by its files, never its JSON", () => {
      assert.equal(toolSummary("edit", { input: "*** Begin Patch\n[src/greet.ts#1a2B]\nPUT 3.=3:\n+x\n[README.md#ffff]\nREM\n*** End Patch" }), "src/greet.ts, README.md");
      assert.equal(toolSummary("edit", { input: "*** Begin Patch\n*** Update File: a.ts\n@@\n-x\n+y\n*** Add File: b.ts\n+z\n*** End Patch" }), "a.ts, b.ts");
      assert.equal(toolSummary("edit", { input: "*** Begin Patch\nsomething else\n" }), "something else");
      assert.equal(toolSummary("edit", { input: "[a#0001]\n[b#0002]\n[c#0003]\n[d#0004]" }), "a, b, c +1");
    });
  });
});

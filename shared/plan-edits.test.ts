import { strict as assert } from "node:assert";
import type { TodoPhase } from "./protocol";
import { addTask, moveTask, progress, removeTask, renameTask, toggleDone } from "./plan-edits";

const plan: TodoPhase[] = [
  { id: "p1", name: "Build", tasks: [
    { id: "a", content: "Read", status: "completed" },
    { id: "b", content: "Write", status: "in_progress" },
    { id: "c", content: "Test", status: "pending" },
  ] },
  { id: "p2", name: "Ship", tasks: [{ id: "d", content: "Release", status: "abandoned" }] },
];

describe("plan edits", () => {
  it("counts progress without abandoned tasks", () => assert.deepEqual(progress(plan), { done: 1, total: 3 }));

  it("toggles done and back, renames, removes, leaving the input untouched", () => {
    const done = toggleDone(plan, { phaseId: "p1", taskId: "c" });
    assert.equal(done[0]!.tasks[2]!.status, "completed");
    assert.equal(toggleDone(done, { phaseId: "p1", taskId: "c" })[0]!.tasks[2]!.status, "pending");
    assert.equal(renameTask(plan, { phaseId: "p1", taskId: "a" }, "Read all")[0]!.tasks[0]!.content, "Read all");
    assert.deepEqual(removeTask(plan, { phaseId: "p1", taskId: "b" })[0]!.tasks.map((t) => t.id), ["a", "c"]);
    assert.equal(plan[0]!.tasks[2]!.status, "pending");
  });

  it("moves within a phase and stays at the ends", () => {
    assert.deepEqual(moveTask(plan, { phaseId: "p1", taskId: "c" }, -1)[0]!.tasks.map((t) => t.id), ["a", "c", "b"]);
    assert.deepEqual(moveTask(plan, { phaseId: "p1", taskId: "a" }, -1)[0]!.tasks.map((t) => t.id), ["a", "b", "c"]);
  });

  it("adds a pending task to a phase, the last one, or a first phase", () => {
    assert.deepEqual(addTask(plan, "Docs", "p1")[0]!.tasks.at(-1), { id: "user-5", content: "Docs", status: "pending" });
    assert.equal(addTask(plan, "Docs")[1]!.tasks.at(-1)!.content, "Docs");
    assert.deepEqual(addTask([], "First"), [{ id: "phase-1", name: "Todos", tasks: [{ id: "user-1", content: "First", status: "pending" }] }]);
  });
});

import { strict as assert } from "node:assert";
import { createTodoTool, formatTodos, type TodoPhaseState } from "./todo";

describe("todo tool", () => {
  it("replaces the list in the store, filling ids, and answers with it as text", async () => {
    let stored: TodoPhaseState[] = [];
    const tool = createTodoTool({ get: () => stored, set: (p) => (stored = p) });
    const result = await tool.execute(
      "c1",
      { phases: [{ name: "Plan", tasks: [{ content: "read code", status: "completed" }, { id: "t2", content: "write code", status: "in_progress" }] }] },
      new AbortController().signal,
      () => undefined,
    );
    assert.deepEqual(stored, [{ id: "phase-1", name: "Plan", tasks: [{ id: "task-1-1", content: "read code", status: "completed" }, { id: "t2", content: "write code", status: "in_progress" }] }]);
    assert.equal(result.content[0].type === "text" && result.content[0].text, "Plan:\n  [x] read code\n  [~] write code");
  });

  it("says when the list is empty", () => {
    assert.equal(formatTodos([]), "The todo list is empty.");
  });
});

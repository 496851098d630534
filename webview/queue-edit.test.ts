import * as assert from "node:assert/strict";
import { moveQueued, sendQueuedNow, withoutQueued } from "./queue-edit";

const queue = { steering: ["s1", "s2"], followUp: ["f1", "f2", "f3"] };

describe("queue editing", () => {
  it("moves a message up or down within its list and says where it went", () => {
    assert.deepEqual(moveQueued(queue, "followUp", 2, -1), { queue: { steering: ["s1", "s2"], followUp: ["f1", "f3", "f2"] }, index: 1 });
    assert.deepEqual(moveQueued(queue, "steering", 0, 1), { queue: { steering: ["s2", "s1"], followUp: ["f1", "f2", "f3"] }, index: 1 });
  });
  it("does not move past either end, and leaves the given queue alone", () => {
    assert.equal(moveQueued(queue, "followUp", 0, -1), undefined);
    assert.equal(moveQueued(queue, "steering", 1, 1), undefined);
    assert.equal(moveQueued(queue, "steering", 5, -1), undefined);
    assert.deepEqual(queue, { steering: ["s1", "s2"], followUp: ["f1", "f2", "f3"] });
  });
  it("sends a message now: first of the steering, the rest in their order", () => {
    assert.deepEqual(sendQueuedNow(queue, "followUp", 1), { steering: ["f2", "s1", "s2"], followUp: ["f1", "f3"] });
    assert.deepEqual(sendQueuedNow(queue, "steering", 1), { steering: ["s2", "s1"], followUp: ["f1", "f2", "f3"] });
    assert.deepEqual(sendQueuedNow(queue, "steering", 9), queue);
  });
  it("removes one message", () => {
    assert.deepEqual(withoutQueued(queue, "followUp", 0), { steering: ["s1", "s2"], followUp: ["f2", "f3"] });
  });
});

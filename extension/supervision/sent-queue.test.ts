import { strict as assert } from "node:assert";
import { SentQueue } from "./sent-queue";

describe("SentQueue (what was sent to an agent that reports no queue)", () => {
  it("shows sent messages until the agent takes them, in order and by kind", () => {
    const sent = new SentQueue();
    assert.equal(sent.add("a", "steer"), true);
    assert.equal(sent.add("b", "followUp"), true);
    assert.equal(sent.add("a", "steer"), true);
    assert.deepEqual(sent.shown, { steering: ["a", "a"], followUp: ["b"] });
    assert.equal(sent.taken("a"), true);
    assert.equal(sent.taken("not sent"), false);
    assert.deepEqual(sent.shown, { steering: ["a"], followUp: ["b"] });
    assert.equal(sent.clear(), true);
    assert.equal(sent.shown, undefined);
    assert.equal(sent.clear(), false);
  });

  it("steps aside for good once the agent reports its own queue (until a new agent process)", () => {
    const sent = new SentQueue();
    sent.add("a", "steer");
    sent.agentReports();
    assert.equal(sent.shown, undefined);
    assert.equal(sent.add("b", "steer"), false);
    sent.reset();
    assert.equal(sent.add("c", "followUp"), true);
    assert.deepEqual(sent.shown, { steering: [], followUp: ["c"] });
  });

  it("keeps what the agent says it still holds after a run, the oldest steering dropped first", () => {
    const sent = new SentQueue();
    sent.add("s1", "steer");
    sent.add("s2", "steer");
    sent.add("f1", "followUp");
    assert.equal(sent.keepNewest(3), false);
    assert.equal(sent.keepNewest(2), true);
    assert.deepEqual(sent.shown, { steering: ["s2"], followUp: ["f1"] });
    assert.equal(sent.keepNewest(0), true);
    assert.equal(sent.shown, undefined);
  });
});

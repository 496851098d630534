import * as assert from "node:assert/strict";
import { RestartPolicy } from "./restart-policy";

describe("RestartPolicy", () => {
  const options = { maxCrashes: 5, windowMs: 180_000, baseDelayMs: 1000, maxDelayMs: 30_000 };

  it("backs off exponentially and gives up at the 5th crash within 3 minutes", () => {
    const policy = new RestartPolicy(options);
    const decisions = [0, 1000, 2000, 3000, 4000].map((t) => policy.crashed(t));
    assert.deepEqual(decisions.slice(0, 4).map((d) => (d.restart ? d.delayMs : -1)), [1000, 2000, 4000, 8000]);
    assert.deepEqual(decisions[4], { restart: false, crashes: 5 });
  });

  it("forgets crashes older than the window", () => {
    const policy = new RestartPolicy(options);
    for (const t of [0, 1000, 2000, 3000]) policy.crashed(t);
    const later = policy.crashed(200_000);
    assert.deepEqual(later, { restart: true, delayMs: 1000, crashes: 1 });
  });

  it("caps the delay and starts over after reset", () => {
    const policy = new RestartPolicy({ ...options, maxCrashes: 100, maxDelayMs: 5000 });
    let last = policy.crashed(0);
    for (let i = 1; i < 10; i++) last = policy.crashed(i);
    assert.equal(last.restart && last.delayMs, 5000);
    policy.reset();
    assert.deepEqual(policy.crashed(20), { restart: true, delayMs: 1000, crashes: 1 });
  });
});

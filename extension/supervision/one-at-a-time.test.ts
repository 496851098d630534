import { strict as assert } from "node:assert";
import { oneAtATime } from "./one-at-a-time";

describe("oneAtATime: the agent's restarts never overlap", () => {
  it("runs once more after the running one, and asks meanwhile share that run", async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const restart = oneAtATime(async () => {
      runs++;
      active++;
      most = Math.max(most, active);
      await new Promise((resolve) => setTimeout(resolve, 20));
      active--;
      return runs;
    });
    const first = restart();
    assert.equal(restart(), first, "asked again before it began: the same run");
    await new Promise((resolve) => setTimeout(resolve, 5)); // the first runs now
    const second = restart();
    const third = restart();
    assert.equal(second, third, "asks while one waits share it");
    assert.deepEqual(await Promise.all([first, second, third]), [1, 2, 2]);
    assert.equal(most, 1, "never two at once");
    assert.equal(await restart(), 3, "a later ask runs again");
  });

  it("a failed run does not stop the next", async () => {
    let n = 0;
    const restart = oneAtATime(async () => {
      n++;
      if (n === 1) throw new Error("bad option: --mode");
      return n;
    });
    const first = assert.rejects(restart(), /bad option/);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const second = restart();
    await first;
    assert.equal(await second, 2);
  });
});

import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

// The watchdog that kills a command's group when the host is SIGKILLed must be listening before
// the command starts: else a host killed while it was still spawning the watchdog (milliseconds,
// more on a busy machine) left the command running for good (a red CI: host-faults, "SIGKILL
// while a shell command runs"). Checked in a fresh process, where the first command starts the
// watchdog: the order of the spawns is the order of the real processes.
describe("process groups: the watchdog runs before the first command", () => {
  /** `run` makes the first command; `wait` (from process.ts) the promise of its end, when `run` returns a child. */
  const spawnOrder = (run: string, wait?: string): string => {
    const script = `
      const cp = require("node:child_process");
      const spawn = cp.spawn;
      const order = [];
      cp.spawn = function (file, args) {
        order.push(String((args && args[1]) || file).startsWith('g=" "') ? "watchdog" : "command");
        return spawn.apply(this, arguments);
      };
      const tools = ${JSON.stringify(resolve(__dirname))};
      const started = (${run})();
      const ended = ${wait ? `require(tools + "/process.ts").${wait}(started)` : "started"};
      ended.then(() => { console.log(order.join(",")); process.exit(0); });`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { encoding: "utf8", timeout: 20_000, killSignal: "SIGKILL" });
    assert.equal(child.stderr.trim(), "");
    return child.stdout.trim();
  };

  it("before the host's first shell command", function () {
    this.timeout(30_000);
    const order = spawnOrder(`() => require(tools + "/shell.ts").createLocalShellIo().exec("true", process.cwd(), { onData() {}, signal: new AbortController().signal })`);
    assert.equal(order, "watchdog,command");
  });

  it("before an extension's first exec", function () {
    this.timeout(30_000);
    const order = spawnOrder(`() => require(tools + "/process-groups.ts").spawnTracked("true", [], { cwd: process.cwd(), env: process.env }).child`, "waitForExit");
    assert.equal(order, "watchdog,command");
  });
});

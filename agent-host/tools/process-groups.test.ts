import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { trackProcessGroup } from "./process-groups";

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

/** The state letter of `/proc/<pid>/stat`. */
const stateOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]?.[0];

/** Tracks group `pgid` once its process `pgid` shows as a zombie ("Z"); whether its clean-up ran, and its release. */
async function trackOnceZombie(pgid: number): Promise<{ gone: () => boolean; release: () => void }> {
  for (let tries = 0; stateOf(pgid) !== "Z"; tries++) {
    assert.ok(tries < 200, "the process became a zombie");
    await new Promise((done) => setTimeout(done, 25));
  }
  let gone = false;
  const release = trackProcessGroup(pgid, () => (gone = true));
  return { gone: () => gone, release };
}

// bubblewrap's outer process exits before reaping its inner init, which then waits as a zombie
// for pid 1 to reap it (1-2 s on this VM, never in a container whose pid 1 does not reap): a
// group holding only that zombie kept the sandbox's placeholders in the workspace that long.
describe("process groups: a group left with only zombies is gone", () => {
  it("runs the group's clean-up while its last member is an unreaped zombie", async function () {
    if (process.platform !== "linux") this.skip();
    this.timeout(20_000);
    // A group of its own (setsid) whose only process exits at once; its parent, in another group, never reaps it (exec sleep).
    const parent = spawn("sh", ["-c", `setsid sh -c 'exit 0' & echo $!; exec sleep 30`], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const pgid = Number(await new Promise<string>((done) => parent.stdout.once("data", (chunk: Buffer) => done(chunk.toString()))));
      const { gone, release } = await trackOnceZombie(pgid);
      release();
      assert.equal(gone(), true, "the clean-up ran although kill(-pgid, 0) still finds the zombie");
      assert.equal(stateOf(pgid), "Z", "the zombie was still there");
    } finally {
      parent.kill("SIGKILL");
    }
  });
});

// Attack on the rule above: a process whose main thread exits while its other threads run shows
// as a zombie ("Z") in /proc/<pid>/stat, its threads in /proc/<pid>/task only. Counted as gone,
// its group was forgotten (not killed when the host ends) and a sandbox's clean-up ran while it
// still ran.
describe("process groups: a zombie leader whose threads still run is not gone", () => {
  it("keeps the group while a thread of its zombie leader runs, and lets it go once the process is dead", async function () {
    if (process.platform !== "linux") this.skip();
    this.timeout(20_000);
    // The main thread ends with pthread_exit; the other thread stays (blocked on the GIL the main thread held: alive all the same).
    const script = "import ctypes, threading, time\nthreading.Thread(target=lambda: time.sleep(60)).start()\ntime.sleep(0.1)\nctypes.CDLL(None).pthread_exit(None)";
    const child = spawn("python3", ["-c", script], { detached: true, stdio: "ignore" });
    const pid = child.pid!;
    try {
      const { gone, release } = await trackOnceZombie(pid);
      release();
      assert.equal(gone(), false, "the clean-up ran while a thread of the group's process still ran");
      const exited = new Promise((done) => child.once("exit", done));
      process.kill(pid, "SIGKILL");
      await exited;
      release();
      assert.equal(gone(), true, "gone once the process is");
    } finally {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
  });
});

import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { FrameTransport } from "../../../shared/rpc/transport";
import { transportEvents } from "../../../shared/rpc/transport";
import { HostPools } from "./host-pools";
import { pooledLaunch, type LaunchToPool } from "./pool-launch";

const node = "/usr/bin/node";
const host = "/ext/dist/agent-host.js";
const launch = (over: Partial<LaunchToPool> = {}): LaunchToPool => ({
  command: node,
  args: ["--max-semi-space-size=1", host, "--mode", "rpc", "--todo-tool"],
  env: { PATH: "/bin", GLIBC_TUNABLES: "glibc.malloc.arena_max=1", PI_GATEWAY_TOKEN: "t1", PI_SECRET_ENV: "PI_GATEWAY_TOKEN,GLIBC_TUNABLES" },
  cwd: "/work",
  bundled: true,
  ...over,
});

describe("pool: which launches share a process", () => {
  it("splits the bundled host's launch into the pool's command and the session's arguments and environment", () => {
    const pooled = pooledLaunch(launch(), host, node)!;
    assert.deepEqual(pooled.pool.args, ["--max-semi-space-size=1", host, "--pool"]);
    assert.deepEqual(pooled.argv, ["--mode", "rpc", "--todo-tool"]);
    assert.equal(pooled.env.PI_GATEWAY_TOKEN, "t1", "the session's worker gets its secrets");
    assert.equal(pooled.pool.env.PI_GATEWAY_TOKEN, undefined, "the pool's process never does");
    assert.equal(pooled.pool.env.PI_SECRET_ENV, undefined);
    assert.equal(pooled.pool.env.GLIBC_TUNABLES, "glibc.malloc.arena_max=1", "read by the process at its start");
    assert.deepEqual(pooled.resourceLimits, { maxYoungGenerationSizeMb: 3 });
  });

  it("shares a pool across sessions whose secrets differ, not across a different cwd, environment or flags", () => {
    const key = (over: Partial<LaunchToPool>) => pooledLaunch(launch(over), host, node)!.pool.key;
    const base = key({});
    assert.equal(key({ env: { ...launch().env, PI_GATEWAY_TOKEN: "t2" } }), base);
    assert.notEqual(key({ cwd: "/elsewhere" }), base);
    assert.notEqual(key({ env: { ...launch().env, NODE_OPTIONS: "--inspect" } }), base);
    assert.notEqual(key({ args: [host, "--mode", "rpc"] }), base);
  });

  it("keeps a process of its own for another agent, an ACP agent or a wrapped host", () => {
    assert.equal(pooledLaunch(launch({ bundled: false }), host, node), undefined);
    assert.equal(pooledLaunch(launch({ protocol: "acp" }), host, node), undefined);
    assert.equal(pooledLaunch(launch({ command: "/usr/bin/bwrap", args: ["--ro-bind", "/", "/", node, host] }), host, node), undefined);
    assert.equal(pooledLaunch(launch({ args: ["-e", "x", host] }), host, node), undefined);
  });
});

/** A stand-in for a process of its own: counts what it made, and each one's events to fire. */
function aloneTransports() {
  const made: ReturnType<typeof transportEvents>[] = [];
  const spawn = () => {
    const emit = transportEvents();
    made.push(emit);
    return { ...emit.events, send: () => Promise.resolve(), endInput: () => undefined, dispose: () => undefined } as unknown as FrameTransport;
  };
  return { made, spawn };
}

describe("pool: a session that cannot share says why", () => {
  it("logs, by name only, what its launch differs in from one running", () => {
    const logged: string[] = [];
    const pools = new HostPools(host, node, (message) => logged.push(message));
    const alone = aloneTransports().spawn;
    pools.place(launch(), alone);
    assert.equal(logged.length, 0, "the first session: nothing to compare");
    pools.place(launch({ env: { ...launch().env, GIT_ASKPASS: "/secret/path", PI_GATEWAY_TOKEN: "t2" } }), alone);
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /environment \(GIT_ASKPASS\)/);
    assert.ok(!logged[0]!.includes("/secret/path") && !logged[0]!.includes("t2"), "no value, and a session's own secret is no difference");
    pools.dispose();
  });
});

describe("pool: sessions started while sharing was off", () => {
  it("are counted: once sharing is on, the next session joins a pool instead of starting alone", () => {
    // A stand-in for agent-host.js: any script the pool's process can run (it is only spawned here).
    const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pool-")), "agent-host.js");
    fs.writeFileSync(script, "setInterval(() => {}, 1000);\n");
    const logged: string[] = [];
    const pools = new HostPools(script, process.execPath, (message) => logged.push(message));
    const own = (over: Partial<LaunchToPool> = {}) => ({ ...launch({ command: process.execPath, args: ["--max-semi-space-size=1", script, "--mode", "rpc"] }), ...over });
    const { made, spawn: alone } = aloneTransports();
    try {
      pools.place(own(), alone, false);
      assert.equal(made.length, 1, "sharing off: a process of its own");
      const next = pools.place(own(), alone, true);
      assert.equal(made.length, 1, "sharing on: the next session does not start alone");
      assert.equal(pools.processCount, 1, "it runs in a pool");
      next.dispose();
      // A pool opened directly (no session of it ever alone), then a launch of another folder: what it differs in from the pool's is logged.
      made[0]!.close.fire({ code: 0, signal: null });
      const other = new HostPools(script, process.execPath, (message) => logged.push(message));
      const pooled = other.open(own())!;
      other.place(own({ cwd: "/elsewhere" }), alone, true);
      assert.ok(logged.some((line) => /differs from a running one in its folder/.test(line)), logged.join("\n") || "nothing logged");
      pooled.dispose();
      other.dispose();
    } finally {
      pools.dispose();
      fs.rmSync(path.dirname(script), { recursive: true, force: true });
    }
  });
});

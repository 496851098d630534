import type { Disposable } from "vscode-jsonrpc";
import type { FrameTransport } from "../../../shared/rpc/transport";
import { HostPool } from "./host-pool";
import { pooledLaunch, type LaunchToPool, type PooledSessionLaunch, type PoolProcessLaunch } from "./pool-launch";
import type { PooledTransport } from "./pooled-transport";

/**
 * The window's pools of the bundled host (`pi.agent.shareProcess`): launches that may share a
 * process (pool-launch.ts) share one per key, started with its first session, gone with its last.
 *
 * A chat's first session runs in a process of its own (`place`): the first session of a pool
 * starts ~60-100 ms later than a process and holds ~8-14 MB more (the pool's own thread; figures
 * in docs/performance.md), which a window with one chat, the usual case, would pay for nothing.
 * Sessions started while one of the same key runs share a pool: from the third session on each
 * costs ~22 MB instead of ~67.
 */
export class HostPools implements Disposable {
  private readonly pools = new Map<string, HostPool>();
  /** Sessions of each key running in a process of their own. */
  private readonly alone = new Map<string, number>();
  /** The launches seen, by key: what a new key differs in is logged (noteOtherLaunches). */
  private readonly launches = new Map<string, PoolProcessLaunch>();

  constructor(
    private readonly hostScript: string,
    private readonly nodeBinary: string = process.execPath,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /**
   * Where a session of this launch runs: a process of its own (`spawnAlone`) when it must, when
   * sharing is off (`share`, pi.agent.shareProcess; counted all the same), or when no other
   * session of its key runs; else a session of the key's pool.
   */
  place<T extends FrameTransport>(launch: LaunchToPool, spawnAlone: () => T, share = true): T | PooledTransport {
    const pooled = pooledLaunch(launch, this.hostScript, this.nodeBinary);
    if (!pooled) return spawnAlone();
    const key = pooled.pool.key;
    if (share && (this.pools.has(key) || (this.alone.get(key) ?? 0) > 0)) return this.openPooled(pooled);
    if (share) this.noteOtherLaunches(pooled.pool);
    else this.launches.set(key, pooled.pool);
    const transport = spawnAlone();
    this.alone.set(key, (this.alone.get(key) ?? 0) + 1);
    const closed = transport.onClose(() => {
      closed.dispose();
      const left = (this.alone.get(key) ?? 1) - 1;
      if (left > 0) this.alone.set(key, left);
      else this.alone.delete(key);
    });
    return transport;
  }

  /**
   * A session that would have shared a process but for its launch differing from those running:
   * what differs, by name only (values may be secrets), so a pool that does not form can be explained.
   */
  private noteOtherLaunches(launch: PoolProcessLaunch): void {
    for (const other of [...this.launches.values()]) {
      if (!this.pools.has(other.key) && !(this.alone.get(other.key) ?? 0)) {
        this.launches.delete(other.key); // no longer running
        continue;
      }
      if (other.key === launch.key) continue;
      const names = new Set([...Object.keys(other.env), ...Object.keys(launch.env)]);
      const env = [...names].filter((name) => other.env[name] !== launch.env[name]).sort();
      const parts = [...(other.command !== launch.command || other.args.join(" ") !== launch.args.join(" ") ? ["its command"] : []), ...(other.cwd !== launch.cwd ? ["its folder"] : []), ...(env.length ? [`its environment (${env.join(", ")})`] : [])];
      this.log(`pool: a session starts in a process of its own: its launch differs from a running one in ${parts.join(", ") || "nothing seen"}`);
    }
    this.launches.set(launch.key, launch);
  }

  /** A session of a pool for this launch; undefined when it must keep a process of its own. */
  open(launch: LaunchToPool): PooledTransport | undefined {
    const pooled = pooledLaunch(launch, this.hostScript, this.nodeBinary);
    return pooled && this.openPooled(pooled);
  }

  private openPooled(pooled: PooledSessionLaunch): PooledTransport {
    this.launches.set(pooled.pool.key, pooled.pool);
    let pool = this.pools.get(pooled.pool.key);
    if (!pool) {
      pool = new HostPool(pooled.pool, (idle) => this.pools.get(idle.launch.key) === idle && this.pools.delete(idle.launch.key), this.log);
      this.pools.set(pooled.pool.key, pool);
    }
    return pool.open(pooled);
  }

  get processCount(): number {
    return this.pools.size;
  }

  dispose(): void {
    for (const pool of this.pools.values()) pool.dispose();
    this.pools.clear();
  }
}

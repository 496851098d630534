import type { Disposable } from "vscode-jsonrpc";
import { HostPool } from "./host-pool";
import { pooledLaunch, type LaunchToPool } from "./pool-launch";
import type { PooledTransport } from "./pooled-transport";

/**
 * The window's pools of the bundled host (`pi.agent.shareProcess`): launches that may share a
 * process (pool-launch.ts) share one per key, started with its first session, gone with its last.
 */
export class HostPools implements Disposable {
  private readonly pools = new Map<string, HostPool>();

  constructor(
    private readonly hostScript: string,
    private readonly nodeBinary: string = process.execPath,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /** A session of a pool for this launch; undefined when it must keep a process of its own. */
  open(launch: LaunchToPool): PooledTransport | undefined {
    const pooled = pooledLaunch(launch, this.hostScript, this.nodeBinary);
    if (!pooled) return undefined;
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

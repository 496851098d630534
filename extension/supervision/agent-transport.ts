/**
 * The transport a prepared launch runs on: an ACP agent behind the Pi frames, or the bundled host
 * as a session of the window's shared process (pi.agent.shareProcess, while another session of its
 * kind runs: pool/host-pools.ts), or a process of its own speaking Pi RPC on its stdio.
 */
import { ProcessTransport } from "../../shared/node/process-transport";
import type { AcpTransport } from "../acp/acp-transport";
import { spawnAcpAgent } from "../acp/spawn-acp-agent";
import { settings } from "../settings";
import { PooledTransport } from "./pool/pooled-transport";
import type { PreparedLaunch } from "./prepare-launch";
import type { SupervisorOptions } from "./supervisor-options";
import { spawnCommand } from "./windows-command";

/** The agent's process behind the frames: Pi RPC on its stdio, or ACP translated (extension/acp/). */
export type AgentTransport = ProcessTransport | AcpTransport | PooledTransport;

/** Opens the launch's transport; the caller adds it to the launch's lifetime. `onModes`: an ACP agent's own modes changed. */
export async function openTransport(prepared: PreparedLaunch, options: SupervisorOptions, onModes: () => void): Promise<AgentTransport> {
  const { launch, gateway } = prepared;
  const log = options.log;
  const spawnable = spawnCommand(launch.command, launch.args, process.platform, { env: launch.env });
  if (launch.protocol === "acp") {
    return spawnAcpAgent(launch, spawnable, { sandboxed: prepared.sandboxed, readOnly: prepared.sandboxed && settings.sandboxMode === "read-only", keys: options.keys, gateway, agentEnv: settings.agentEnv, ...(options.acpSignIns ? { signInMemory: options.acpSignIns } : {}), log: (message) => log.warn(message), onModes });
  }
  const spawnAlone = () => ProcessTransport.spawn(spawnable.command, spawnable.args, { cwd: launch.cwd, env: launch.env, ...(spawnable.verbatim ? { windowsVerbatimArguments: true } : {}) });
  // The bundled host's sessions share a process while several run (pi.agent.shareProcess, pool/host-pools.ts); other launches spawn.
  // Counted by the pools even while sharing is off: once it is turned on, the next session joins a
  // pool beside the sessions running alone, instead of starting alone itself.
  const pools = options.hostPools;
  const transport = pools ? pools.place(launch, spawnAlone, settings.agentShareProcess) : spawnAlone();
  if (transport instanceof PooledTransport) log.info(`Sharing a process with the other sessions of the bundled host (pid ${transport.pid}, session ${transport.session})`);
  return transport;
}

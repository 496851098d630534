/**
 * The bundled host's sandbox options from the user's settings: the mode, then the network: on
 * (`pi.sandbox.network`), else through the filtering proxy to `pi.sandbox.allowedHosts` (each a
 * `--sandbox-allow-host`), else off. Entries that are not host patterns are left out and named, so
 * a typo in the settings shows as a warning rather than stopping the agent.
 */
import { parseHostPattern } from "../../shared/node/sandbox/net/hosts";

export interface HostSandboxSettings {
  mode: string;
  network: boolean;
  allowedHosts: readonly unknown[];
}

export function hostSandboxArgs(settings: HostSandboxSettings): { args: string[]; ignored: string[] } {
  const args = ["--sandbox", settings.mode];
  if (settings.network) return { args: [...args, "--sandbox-network"], ignored: [] };
  const ignored: string[] = [];
  for (const entry of settings.allowedHosts) {
    if (typeof entry === "string" && parseHostPattern(entry) && !entry.includes(",")) args.push("--sandbox-allow-host", entry.trim());
    else ignored.push(String(entry));
  }
  return { args, ignored };
}

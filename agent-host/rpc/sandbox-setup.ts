/**
 * --sandbox: the OS sandbox of the processes the tools start (the bash tool, its background jobs,
 * Pi extensions' exec). The user's own `!command` (RPC `bash`) is not sandboxed: the user typed
 * it, as in their terminal. full-access, or no --sandbox: none (pi's behaviour).
 */
import { CommandSandbox } from "../../shared/node/sandbox";
import { NetworkAllowances } from "../tools/network-allowances";
import { ToolSandbox } from "../tools/tool-sandbox";
import type { CliOptions } from "./cli-options";
import type { RpcExtensionUi } from "./extension-ui";
import { clientAsk } from "./tool-setup";

/** `session`: the session's generation (allowances of hosts end with it). */
export function createToolSandbox(options: CliOptions, cwd: string, env: NodeJS.ProcessEnv, ui: () => RpcExtensionUi | undefined, session: () => number | undefined = () => undefined): ToolSandbox | undefined {
  if (!options.sandbox || options.sandbox === "full-access") return undefined;
  const ask = clientAsk(ui, options.confirmTimeoutMs);
  const warn = (message: string) => ui()?.notice({ method: "notify", message, notifyType: "warning" });
  // --sandbox-network wins over allowed hosts (everything is allowed then).
  const allowedHosts = !options.sandboxNetwork && options.sandboxAllowHosts.length > 0 ? { allowedHosts: options.sandboxAllowHosts } : {};
  const sandbox = new ToolSandbox(
    // What a command made of a protected path (a nested .git) is moved aside and the user told.
    new CommandSandbox({ mode: options.sandbox, network: options.sandboxNetwork, ...allowedHosts, workspaceRoot: cwd, writableRoots: [] }, env, { decideHost: new NetworkAllowances(ask, session).decide, onQuarantine: warn }),
    ask,
    warn,
  );
  process.once("exit", () => sandbox.dispose());
  return sandbox;
}

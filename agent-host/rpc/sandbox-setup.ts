/**
 * --sandbox: the OS sandbox of the processes the tools start (the bash tool, its background jobs,
 * Pi extensions' exec). The user's own `!command` (RPC `bash`) is not sandboxed: the user typed
 * it, as in their terminal. full-access, or no --sandbox: none (pi's behaviour).
 */
import { CommandSandbox } from "../../shared/node/sandbox";
import { ToolSandbox } from "../tools/tool-sandbox";
import type { CliOptions } from "./cli-options";
import type { RpcExtensionUi } from "./extension-ui";
import { clientAsk } from "./tool-setup";

export function createToolSandbox(options: CliOptions, cwd: string, env: NodeJS.ProcessEnv, ui: () => RpcExtensionUi | undefined): ToolSandbox | undefined {
  if (!options.sandbox || options.sandbox === "full-access") return undefined;
  const warn = (message: string) => ui()?.notice({ method: "notify", message, notifyType: "warning" });
  const sandbox = new ToolSandbox(
    // What a command made of a protected path (a nested .git) is moved aside and the user told.
    new CommandSandbox({ mode: options.sandbox, network: options.sandboxNetwork, workspaceRoot: cwd, writableRoots: [] }, env, { onQuarantine: warn }),
    clientAsk(ui, options.confirmTimeoutMs),
    warn,
  );
  process.once("exit", () => sandbox.dispose());
  return sandbox;
}

/**
 * Loads Pi extensions for an RPC host: their dialogs and notices go to the client as
 * extension_ui_request frames (extension-ui.ts), their commands join get_commands and prompts.
 * `runtime.ready` settles when loading is done (it rejects with ExtensionLoadFailure).
 */
import { createUiContext, loadExtensions } from "../session/extensions";
import type { CliOptions } from "./cli-options";
import type { ToolSandbox } from "../tools/tool-sandbox";
import { RpcExtensionUi } from "./extension-ui";
import type { HostRuntime } from "./runtime";

export interface ExtensionEnvironment {
  cwd: string;
  agentDir: string;
  /** The project's protected resources (its `.pi/extensions/`) may load. */
  projectTrusted: boolean;
  /** The environment of the processes an extension's exec starts. */
  env: NodeJS.ProcessEnv;
  /** The OS sandbox exec's processes run in (--sandbox). */
  sandbox?: ToolSandbox;
  send(frame: object): void;
  warn(message: string): void;
  /** Ends the host (ctx.shutdown()); called once the session has settled. */
  shutdown?(): void;
}

export function attachExtensions(runtime: HostRuntime, options: CliOptions, environment: ExtensionEnvironment): void {
  const ui = new RpcExtensionUi(environment.send);
  runtime.extensionUi = ui;
  const session = runtime.session;
  runtime.ready = loadExtensions({
    session,
    cwd: environment.cwd,
    agentDir: environment.agentDir,
    ui: createUiContext(ui),
    mode: "rpc",
    projectTrusted: environment.projectTrusted,
    env: environment.env,
    ...(environment.sandbox ? { sandbox: environment.sandbox } : {}),
    noExtensions: options.noExtensions,
    explicit: options.extensions,
    models: runtime.models,
    resourceCommands: () => runtime.commands(),
    shutdown: () => void session.waitForSettled().then(() => setTimeout(() => environment.shutdown?.(), 0)),
    warn: environment.warn,
  }).then((host) => {
    runtime.extensions = host;
  });
}

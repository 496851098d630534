/**
 * Pi TypeScript extensions in our host: discover them (discovery.ts), compile each with esbuild
 * (compiler.ts), run its default-export factory with the `pi` API (api.ts), bind the result to the
 * session (bind.ts) and fire `session_start`. A load failure is fatal, as in pi: the host reports
 * `Failed to load extension "<path>": <reason>` and exits 1 (`--no-extensions` skips discovered ones).
 */
import type { Disposable } from "vscode-jsonrpc";
import type { ImageContent, SlashCommand } from "../../../shared/protocol";
import { SessionActions } from "./actions";
import { createEventBus, createExtensionApi } from "./api";
import { bindExtensions } from "./bind";
import { createCompiler, type CompilerBackend, type ExtensionCompiler } from "./compiler";
import { createContexts, type ExtensionHostOptions } from "./context";
import { discoverExtensions, type ExtensionSource } from "./discovery";
import { importExtension } from "./module-loader";
import { ExtensionRunner } from "./runner";
import type { InputEventResult } from "./types";
import { errorText } from "../../../shared/error-text";

export type { ExtensionHostOptions } from "./context";
export type { ExtensionSource } from "./discovery";
export type { DialogSpec, NoticeSpec, UiBridge } from "./ui-context";
export { createUiContext } from "./ui-context";
export { discoverExtensions } from "./discovery";

export interface LoadExtensionsOptions extends ExtensionHostOptions {
  agentDir: string;
  noExtensions: boolean;
  /** `-e` paths. */
  explicit: readonly string[];
  warn(message: string): void;
  compiler?: CompilerBackend;
}

/** What the RPC layer uses. */
export interface ExtensionHost extends Disposable {
  readonly paths: readonly string[];
  commands(): SlashCommand[];
  /** Runs `/name args` when an extension registered `name`; resolves false (at once) otherwise. */
  runCommand(text: string): Promise<boolean>;
  isCommand(text: string): boolean;
  /** The `input` handlers' verdict on a prompt. */
  input(text: string, images: ImageContent[] | undefined, streamingBehavior?: "steer" | "followUp"): Promise<InputEventResult>;
  /** `session_shutdown` (reason quit), before the host exits. */
  shutdown(): Promise<void>;
}

export class ExtensionLoadFailure extends Error {
  constructor(readonly path: string, reason: string) {
    super(`Failed to load extension "${path}": ${reason}`);
  }
}

async function loadAll(sources: ExtensionSource[], runner: ExtensionRunner, actions: SessionActions, options: LoadExtensionsOptions): Promise<void> {
  let compiler: ExtensionCompiler | undefined;
  const events = createEventBus((channel, error) => runner.report("<events>", channel, error));
  try {
    for (const source of sources) {
      compiler ??= await createCompiler(options.compiler);
      const extension = runner.add(source);
      try {
        const factory = await importExtension(source.path, compiler);
        await factory(createExtensionApi(extension, actions, events, options.warn));
      } catch (error) {
        runner.remove(extension);
        throw new ExtensionLoadFailure(source.path, errorText(error));
      }
    }
  } finally {
    await compiler?.dispose();
  }
}

export async function loadExtensions(options: LoadExtensionsOptions): Promise<ExtensionHost> {
  const { session } = options;
  const sources = discoverExtensions({
    cwd: options.cwd, agentDir: options.agentDir, projectTrusted: options.projectTrusted, noExtensions: options.noExtensions, explicit: options.explicit,
  });
  const runner = new ExtensionRunner((error) => session.emit({ type: "extension_error", ...error }));
  const actions = new SessionActions(options, () => runner.commands());
  const contexts = createContexts(options);
  runner.context = () => contexts.context;
  runner.commandContext = () => contexts.commandContext;
  await loadAll(sources, runner, actions, options);
  const binding = bindExtensions(runner, session);
  actions.setKnownTools(session.agent.tools);
  await runner.emit({ type: "session_start", reason: "startup" });
  return {
    paths: runner.extensions.map((e) => e.path),
    commands: () => runner.commands(),
    runCommand: (text) => runner.runCommand(text),
    isCommand: (text) => runner.findCommand(text) !== undefined,
    input: (text, images, behavior) => (runner.hasHandlers("input") ? runner.emitInput(text, images, behavior) : Promise.resolve({ action: "continue" })),
    shutdown: () => runner.emit({ type: "session_shutdown", reason: "quit" }),
    dispose: () => binding.dispose(),
  };
}

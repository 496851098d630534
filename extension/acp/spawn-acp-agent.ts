/**
 * An ACP agent's process and connection as the supervisor starts one: the SDK loaded now (not
 * before), files and terminals the editor's, sign-in through the editor's pickers.
 */
import type { AgentLaunch } from "../supervision/agent-command";
import type { AgentGateway, KeySource } from "../gateway/agent-gateway";
import { AcpTransport } from "./acp-transport";
import { AcpEditorServices } from "./editor-services";
import { vscodeSignInUi } from "./sign-in-ui";
import type { SignInMemory } from "./acp-sign-in";

export interface AcpSpawnContext {
  /** Whether the launch runs inside our sandbox. */
  sandboxed: boolean;
  /** That sandbox is read-only. */
  readOnly: boolean;
  keys: KeySource | undefined;
  gateway: AgentGateway | undefined;
  /** The user's `pi.agent.env` (user settings): a terminal sign-in runs with it, as the agent does. */
  agentEnv: Readonly<Record<string, string>>;
  /** The gateway sign-in chosen for an agent, made again at its next start. */
  signInMemory?: SignInMemory;
  log(message: string): void;
  onModes(): void;
}

export async function spawnAcpAgent(launch: AgentLaunch, spawnable: { command: string; args: string[] }, context: AcpSpawnContext): Promise<AcpTransport> {
  let named: () => string = () => launch.label.replace(/^ACP: /, "");
  // Its terminals are named by the name it gives itself once initialized (not `node`).
  const editor = new AcpEditorServices(() => named());
  const transport = await AcpTransport.spawn(
    { command: spawnable.command, args: spawnable.args, cwd: launch.cwd, env: launch.env },
    {
      agentName: launch.label.replace(/^ACP: /, ""), files: editor, terminalView: editor, sandboxed: context.sandboxed, readOnly: context.readOnly, terminalEnv: launch.env, log: context.log, onModes: context.onModes,
      // Sign-in: the agent's methods in a quick pick; a stored key through the model gateway, or given over ACP where the method takes one (never its environment).
      signIn: vscodeSignInUi(context.keys, context.gateway, launch.cwd),
      invocation: { command: launch.command, args: launch.args },
      // Not launch.env: that is the whole extension host's environment; the terminal has the editor's already.
      signInEnv: context.agentEnv,
      ...(context.signInMemory ? { signInMemory: context.signInMemory } : {}),
    },
  );
  named = () => transport.bridge.name;
  transport.onClose(() => editor.dispose());
  return transport;
}

import type * as vscode from "vscode";
import { errorText } from "../../shared/error-text";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import { editorToolsBadge } from "../supervision/capability-notes";
import type { ChatHeaderState } from "./chat-header-state";

/** What the header follows of the supervisor. */
export type HeaderSource = Pick<AgentSupervisor, "agent" | "capabilities" | "state" | "sandboxNote" | "onReady" | "onAttach">;

/**
 * Keeps a chat's header in step with its agent: the permission mode and the model as the
 * supervisor holds them, the editor tools once probed, the sandbox at each start, the state and
 * the stats after each run. (The events of a run reach the header through the chat, in order.)
 */
export function followAgent(header: ChatHeaderState, supervisor: HeaderSource, log: vscode.LogOutputChannel): vscode.Disposable {
  const showPermissionMode = () => header.setPermissionMode(supervisor.capabilities?.permissionModes ? supervisor.state?.permissionMode : undefined);
  const subscriptions = [
    // The permission mode is the supervisor's (AgentState): shown as soon as the agent is probed (a
    // fresh chat can start in Plan), and whoever changed it (the pill, the status bar, the palette).
    supervisor.agent.onDidChange(() => {
      showPermissionMode();
      // A model set from outside the chat (the pi.model.* settings) shows in the header too.
      header.followState(supervisor.agent.session);
    }),
    // How the editor tools reach this agent (the editor bridge for pi), once it was probed.
    supervisor.onReady(() => header.change({ editorTools: editorToolsBadge(supervisor.agent.editorToolsVia) })),
  ];
  showPermissionMode();
  supervisor.onAttach((client, lifetime) => {
    header.agentRestarted();
    header.change({ sandbox: supervisor.sandboxNote });
    lifetime.add(client.onSettled(() => {
      quietly(header.refreshStats(client), log);
      quietly(header.refreshState(client), log);
    }));
    quietly(header.refreshState(client), log);
    quietly(header.refreshCommands(client), log);
  });
  return { dispose: () => subscriptions.splice(0).forEach((sub) => sub.dispose()) };
}

/** A header refresh that may fail (the agent went meanwhile): logged, not shown. */
export function quietly(work: Promise<unknown>, log: vscode.LogOutputChannel): void {
  work.catch((error: unknown) => log.debug(`Chat header: ${errorText(error)}`));
}

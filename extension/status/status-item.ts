import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentState } from "../supervision/agent-state";
import { renderStatus, statusCommands, type StatusRender, type StatusView } from "./render-status";

/**
 * The agent's status bar item and context keys (pi.agentRunning, pi.agentReady), rendered from the
 * AgentState of the session commands act on (it follows the active session: `follow`).
 */
export class AgentStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("pi.agent", vscode.StatusBarAlignment.Left, 100);
  private subscription: vscode.Disposable;
  private contextKeys: Record<string, boolean> = {};
  /** The last render, for tests and the sessions list. */
  current: StatusRender | undefined;

  /** `chatLabel`: the name the user knows the session by (its chat's, as in the Sessions list), else the agent's or its file's. */
  constructor(
    private agent: AgentState,
    private readonly chatLabel: () => string | undefined = () => undefined,
  ) {
    this.item.name = "Pi Agent";
    this.subscription = agent.onDidChange(() => this.update());
    this.update();
    this.item.show();
  }

  /** Shows another session's agent (the one the palette's commands now act on), or the same one renamed. */
  follow(agent: AgentState): void {
    if (agent === this.agent) return this.update();
    this.subscription.dispose();
    this.agent = agent;
    this.subscription = agent.onDidChange(() => this.update());
    this.update();
  }

  private update(): void {
    const rendered = renderStatus(viewOf(this.agent, this.chatLabel()));
    this.current = rendered;
    this.item.text = rendered.text;
    const tooltip = new vscode.MarkdownString(rendered.tooltip, true);
    tooltip.isTrusted = { enabledCommands: [...statusCommands] };
    this.item.tooltip = tooltip;
    this.item.command = rendered.command;
    this.item.backgroundColor = rendered.background ? new vscode.ThemeColor(`statusBarItem.${rendered.background}Background`) : undefined;
    const status = this.agent.status;
    this.setContext({
      "pi.agentRunning": status === "running",
      "pi.agentReady": status === "idle" || status === "running",
      "pi.agentCrashed": status === "crashed",
    });
  }

  private setContext(keys: Record<string, boolean>): void {
    for (const [key, value] of Object.entries(keys)) {
      if (this.contextKeys[key] === value) continue;
      this.contextKeys[key] = value;
      void vscode.commands.executeCommand("setContext", key, value);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

function viewOf(agent: AgentState, chatLabel: string | undefined): StatusView {
  const s = agent.session;
  const sessionName = chatLabel ?? s?.sessionName ?? (s?.sessionFile ? path.basename(s.sessionFile) : undefined);
  return {
    status: agent.status,
    ...(agent.blockedReason ? { blockedReason: agent.blockedReason } : {}),
    ...(agent.label ? { label: agent.label } : {}),
    ...(s?.model ? { modelName: s.model.name || s.model.id } : {}),
    ...(s?.thinkingLevel && s.model?.reasoning ? { thinkingLevel: s.thinkingLevel } : {}),
    ...(sessionName ? { sessionName } : {}),
    openDialogs: agent.openDialogs,
    queued: agent.queue.size,
    notes: agent.notes,
    ...(agent.restart?.at !== undefined ? { restartAt: agent.restart.at } : {}),
    ...(agent.restart?.gaveUp ? { gaveUp: true } : {}),
    ...(agent.startFailed ? { startFailed: true } : {}),
  };
}

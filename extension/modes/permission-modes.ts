import * as vscode from "vscode";
import { permissionModeInfo, permissionModes, type PermissionMode } from "../../shared/protocol";
import { Lifetime } from "../lifetime";
import type { AgentSession } from "../sessions/agent-session";
import type { SessionRegistry } from "../sessions/session-registry";
import type { AgentModes } from "../acp/acp-agent-features";
import { notificationText, quickPickText } from "../ui/plain-text";
import { errorText } from "../../shared/error-text";

const modes = permissionModeInfo;
/** Status bar text (codicon + word). */
const short = (mode: PermissionMode) => `$(${modes[mode].icon}) ${modes[mode].short}`;

const order = permissionModes;

/**
 * Permission modes per session (ours; the bundled host enforces them, `set_permission_mode`): a
 * status bar item shows the active session's mode, **Pi: Set Permission Mode** (ctrl+k ,)
 * switches it, **Pi: Approve Plan** leaves plan mode and tells the agent to go ahead, **Pi: Keep
 * Planning** stays in it and gives the chat's message box back (both also under the plan in the chat). The agent
 * keeps its mode across restarts (the supervisor passes it back).
 */
export class PermissionModes implements vscode.Disposable {
  private readonly lifetime = new Lifetime();
  private readonly item = this.lifetime.add(vscode.window.createStatusBarItem("pi.permissionMode", vscode.StatusBarAlignment.Left, 99));
  private watched = new Lifetime();

  constructor(private readonly sessions: SessionRegistry) {
    this.item.name = "Pi Permission Mode";
    this.item.command = "pi.setPermissionMode";
    this.lifetime.add(sessions.onDidChange(() => this.watch()));
    this.lifetime.add({ dispose: () => this.watched.dispose() });
    this.lifetime.add(vscode.commands.registerCommand("pi.setPermissionMode", (mode?: PermissionMode) => this.choose(mode)));
    this.lifetime.add(vscode.commands.registerCommand("pi.approvePlan", () => this.approvePlan()));
    this.lifetime.add(vscode.commands.registerCommand("pi.keepPlanning", () => this.keepPlanning()));
    this.watch();
  }

  private get session(): AgentSession {
    return this.sessions.active;
  }

  /** The active session's mode, as its agent last reported it. */
  get mode(): PermissionMode | undefined {
    return this.session.supervisor.state?.permissionMode;
  }

  private watch(): void {
    this.watched.dispose();
    this.watched = new Lifetime();
    this.watched.add(this.session.supervisor.agent.onDidChange(() => this.render()));
    this.watched.add(this.session.supervisor.onDidChangeAgentModes(() => this.render()));
    this.render();
  }

  private render(): void {
    const mode = this.mode;
    void vscode.commands.executeCommand("setContext", "pi.planMode", mode === "plan");
    const agentModes = this.session.supervisor.acp?.modes;
    if (agentModes) return this.renderAgentModes(agentModes);
    if (!mode || this.session.supervisor.capabilities?.permissionModes !== true) return this.item.hide();
    this.item.text = short(mode);
    this.item.tooltip = `Pi permission mode: ${modes[mode].label}. ${modes[mode].detail}. Click to change.`;
    this.item.backgroundColor = mode === "auto" ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    this.item.show();
  }

  /** An ACP agent's own modes: its current one, named as it names it. */
  private renderAgentModes(agentModes: AgentModes): void {
    const current = agentModes.available.find((m) => m.id === agentModes.current);
    this.item.text = `$(symbol-enum) ${current?.name ?? agentModes.current}`;
    this.item.tooltip = `${this.session.supervisor.agent.label ?? "The agent"}'s mode: ${current?.name ?? agentModes.current}${current?.description ? ` (${current.description})` : ""}. Its own modes (ACP); click to change.`;
    this.item.backgroundColor = undefined;
    this.item.show();
  }

  /** The picker of an ACP agent's own modes (session/set_mode). */
  private async chooseAgentMode(agentModes: AgentModes, given: string | undefined): Promise<void> {
    let id = given && agentModes.available.some((m) => m.id === given) ? given : undefined;
    if (!id) {
      const picked = await vscode.window.showQuickPick(
        agentModes.available.map((m) => ({ label: m.name, description: m.id === agentModes.current ? "(current)" : "", detail: m.description, id: m.id })),
        { title: `${this.session.supervisor.agent.label ?? "Agent"}: Mode`, placeHolder: "The agent's own modes" },
      );
      id = picked?.id;
    }
    if (!id) return;
    await agentModes.set(id).catch((error: unknown) => void vscode.window.showErrorMessage(`Pi: the mode did not change: ${notificationText(errorText(error))}`));
  }

  /** Switches a session's mode (default: the active one's), asking which when none is given. */
  async choose(given?: PermissionMode, session: AgentSession = this.session): Promise<void> {
    const supervisor = session.supervisor;
    const client = await supervisor.ensureStarted().catch(() => undefined); // a failed start reports itself
    const agentModes = supervisor.acp?.modes;
    if (client && agentModes) return this.chooseAgentMode(agentModes, given);
    if (!client || supervisor.capabilities?.permissionModes !== true) {
      void vscode.window.showInformationMessage("Pi: this agent has no permission modes (the bundled agent host has them).");
      return;
    }
    let mode = given;
    if (!mode) {
      const current = supervisor.state?.permissionMode;
      const picked = await vscode.window.showQuickPick(
        order.map((m) => ({ label: modes[m].label, description: m === current ? "(current)" : "", detail: modes[m].detail, mode: m })),
        { title: this.titleFor("Pi: Permission Mode", session), placeHolder: "How much may the agent do without asking?" },
      );
      mode = picked?.mode;
    }
    if (!mode) return;
    if (mode === "auto" && !(await this.confirmFullAuto())) return;
    await client.request("set_permission_mode", { mode });
    await supervisor.agent.refresh(client);
  }

  /** Full auto runs bash unasked: said plainly, confirmed, and only in a trusted workspace. */
  private async confirmFullAuto(): Promise<boolean> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage("Pi: Full auto is only available in a trusted workspace.");
      return false;
    }
    const yes = "Run everything without asking";
    const picked = await vscode.window.showQuickPick([{ label: yes, detail: "The agent runs bash commands and edits files with your permissions, without asking first" }, { label: "Cancel" }], {
      title: "Pi: Turn on Full auto?",
    });
    return picked?.label === yes;
  }

  /** Leaves plan mode for a working mode the user picks, and tells the agent to carry the plan out. */
  async approvePlan(session: AgentSession = this.session): Promise<void> {
    const supervisor = session.supervisor;
    if (supervisor.state?.permissionMode !== "plan") {
      void vscode.window.showInformationMessage("Pi: the session is not in plan mode.");
      return;
    }
    const picked = await vscode.window.showQuickPick(
      (["acceptEdits", "ask"] as const).map((m) => ({ label: `Approve: ${modes[m].label}`, detail: modes[m].detail, mode: m })),
      { title: this.titleFor("Pi: Approve Plan", session), placeHolder: "How should the agent work on it?" },
    );
    if (!picked) return;
    const client = await supervisor.ensureStarted();
    await client.request("set_permission_mode", { mode: picked.mode });
    await supervisor.agent.refresh(client);
    await session.chat.prompt("The plan is approved. Go ahead.");
  }

  /** A picker's title, naming the session it acts on when the window has more than one (#32). */
  private titleFor(title: string, session: AgentSession): string {
    return this.sessions.all.length > 1 ? `${title} — ${quickPickText(`${session.label} (${session.description})`)}` : title;
  }

  /** Stays in plan mode: the chat's message box takes what should change, the decision waits for the next answer. */
  private keepPlanning(session: AgentSession = this.session): void {
    if (session.supervisor.state?.permissionMode !== "plan") {
      void vscode.window.showInformationMessage("Pi: the session is not in plan mode.");
      return;
    }
    session.plan.keepPlanning();
    session.reveal();
    session.chat.post({ type: "focus" });
  }

  dispose(): void {
    this.lifetime.dispose();
  }
}

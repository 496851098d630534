import * as vscode from "vscode";
import type { AgentSupervisor } from "../supervision/agent-supervisor";

/** "Ask Pi to fix" on a diagnostic; "Steer Pi with this" while the agent is working. */
export class AskPiCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly supervisor: AgentSupervisor) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (this.supervisor.agent.blockedReason) return [];
    const running = this.supervisor.status === "running";
    return context.diagnostics.slice(0, 3).map((diagnostic) => {
      const short = diagnostic.message.split("\n")[0].slice(0, 60);
      const action = new vscode.CodeAction(`${running ? "Steer Pi with this" : "Ask Pi to fix"}: ${short}`, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.command = { command: "pi.askToFix", title: action.title, arguments: [document.uri, diagnostic] };
      return action;
    });
  }
}

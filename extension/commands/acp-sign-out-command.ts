import { errorText } from "../../shared/error-text";
import * as vscode from "vscode";
import { signOutReport } from "../acp/acp-sign-out";
import { notificationText } from "../ui/plain-text";
import { type CommandContext } from "./context";

export const signOutCommand = "pi.signOutAcpAgent";

/**
 * Pi: Sign Out of ACP Agent: ACP's `logout` where the running agent declares it (asked first), and
 * in every case what stays said plainly (acp-sign-out.ts), with Restart Agent where the process
 * holds what the editor gave it this run.
 */
export function registerAcpSignOutCommand(ctx: CommandContext): vscode.Disposable {
  return vscode.commands.registerCommand(signOutCommand, async () => {
    const target = ctx.supervisor.acp?.signOut;
    if (!target) {
      void vscode.window.showInformationMessage("Pi: Sign Out of ACP Agent applies to a running ACP agent, and none runs. A Pi agent's keys are changed or removed with Pi: Set API Key.");
      return;
    }
    const name = notificationText(target.agentName);
    if (target.logoutOffered) {
      const go = "Sign Out";
      const answer = await vscode.window.showWarningMessage(`Sign out of ${name}?`, { modal: true, detail: `${name} is asked to end its sign-in (ACP logout); its next session asks you to sign in again.` }, go);
      if (answer !== go) return;
    }
    try {
      const report = signOutReport(await target.signOut(), target.record);
      const restart = "Restart Agent";
      // A notification, not a modal: it informs, and Restart Agent stays at hand.
      const choice = await vscode.window.showInformationMessage([report.message, report.detail].filter(Boolean).join(" ").replace(/\n+/g, " "), ...(report.restart ? [restart] : []));
      if (choice === restart) await vscode.commands.executeCommand("pi.restartAgent");
    } catch (error) {
      ctx.log.warn(`Signing out of ${target.agentName} failed: ${errorText(error)}`);
      void vscode.window.showErrorMessage(`Pi: Signing out of ${name} failed: ${notificationText(errorText(error))}`);
    }
  });
}

import * as vscode from "vscode";
import { notificationText } from "./plain-text";
import { untrustedMessage } from "../supervision/trust";

/** The supervisor's messages to the user: crashes, the give-up, missing capabilities, trust. */
export class AgentNotices {
  private readonly notesShown = new Set<string>();
  private untrustedShown = false;

  constructor(private readonly log: vscode.LogOutputChannel) {}

  crashRestarting(what: string, delayMs: number): void {
    const seconds = Math.max(1, Math.round(delayMs / 1000));
    void vscode.window.showErrorMessage(`${what}. Restarting in ${seconds} s.`, "Show Log").then((choice) => {
      if (choice === "Show Log") this.log.show();
    });
  }

  gaveUp(message: string, restart: () => void): void {
    void vscode.window.showErrorMessage(message, "Restart", "Show Log").then((choice) => {
      if (choice === "Restart") restart();
      else if (choice === "Show Log") this.log.show();
    });
  }

  /** Each missing capability once per agent command: an information message, not an error. */
  notesOnce(label: string, notes: string[]): void {
    for (const note of notes) {
      const key = `${label}\n${note}`;
      if (this.notesShown.has(key)) continue;
      this.notesShown.add(key);
      this.log.info(note);
      void vscode.window.showInformationMessage(notificationText(`Pi (${label}): ${note}`));
    }
  }

  untrustedOnce(): void {
    if (this.untrustedShown) return;
    this.untrustedShown = true;
    void vscode.window.showWarningMessage(untrustedMessage, "Manage Workspace Trust").then((choice) => {
      if (choice) void vscode.commands.executeCommand("workbench.trust.manage");
    });
  }
}

export function duration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} seconds`;
  const minutes = Math.round(ms / 60_000);
  return minutes === 1 ? "a minute" : `${minutes} minutes`;
}

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
    void vscode.window.showErrorMessage(`${notificationText(what)}. Restarting in ${seconds} s.`, "Show Log").then((choice) => {
      if (choice === "Show Log") this.log.show();
    });
  }

  gaveUp(message: string, restart: () => void): void {
    void vscode.window.showErrorMessage(notificationText(message), "Restart", "Show Log").then((choice) => {
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

  /**
   * Keys in SecretStorage that no provider can reach through the model gateway are not given to
   * the agent (never silently put in its environment): said once per set of names.
   */
  keysNotGivenOnce(variables: readonly string[]): void {
    const key = `keys\n${variables.join(",")}`;
    if (this.notesShown.has(key)) return;
    this.notesShown.add(key);
    const message = `Pi: the stored API key${variables.length > 1 ? "s" : ""} ${variables.join(", ")} ${variables.length > 1 ? "are" : "is"} not given to the agent: no provider it knows reads ${variables.length > 1 ? "them" : "it"} through the key gateway. Add the provider to models.json with a "baseUrl" and "apiKey": "$${variables[0]}", or set the variable in your own environment.`;
    this.log.warn(message);
    void vscode.window.showWarningMessage(notificationText(message));
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

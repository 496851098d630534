import * as vscode from "vscode";
import { notificationText } from "./plain-text";
import { untrustedMessage } from "../supervision/trust";
import { closableNotice, type NoticeLink } from "./closable-notice";

/**
 * The supervisor's messages to the user: crashes, the give-up, a failed start, missing
 * capabilities, trust. Those about the agent's state (down, restarting, not started, untrusted)
 * are closable notices that go when the state ends (closable-notice.ts): one at a time, gone once
 * the agent is ready (or stopped), or once trust is granted.
 */
export class AgentNotices implements vscode.Disposable {
  private readonly notesShown = new Set<string>();
  private untrustedShown = false;
  /** The notice of the agent being down (a failed start, a crash, the give-up), while it is. */
  private down: vscode.Disposable | undefined;
  private untrusted: vscode.Disposable | undefined;

  /** `owner`: the editor session of the agent (AgentSession.id), whose agent Restart restarts; none: the active session's. */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly owner?: string,
  ) {}

  private get restartLink(): NoticeLink {
    return this.owner ? { label: "Restart", command: "pi.sessions.restart", args: [this.owner] } : { label: "Restart", command: "pi.restartAgent" };
  }

  private showDown(text: string, links: NoticeLink[], busy = false): void {
    this.down?.dispose();
    this.down = closableNotice(text, links, { busy });
  }

  crashRestarting(what: string, delayMs: number): void {
    const seconds = Math.max(1, Math.round(delayMs / 1000));
    this.showDown(`${notificationText(what)}. Restarting in ${seconds} s.`, [showLog], true);
  }

  gaveUp(message: string): void {
    this.showDown(notificationText(message), [this.restartLink, showLog]);
  }

  /** A start failed while its chat is not on screen (the chat shows it in place otherwise). */
  startFailed(message: string): void {
    this.showDown(notificationText(message), [openSettings, this.restartLink, showLog]);
  }

  /** The agent is ready, or was stopped: what said it was down or restarting goes. */
  agentUp(): void {
    this.down?.dispose();
    this.down = undefined;
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
    this.untrusted = closableNotice(untrustedMessage, [{ label: "Manage Workspace Trust", command: "workbench.trust.manage" }]);
  }

  trustGranted(): void {
    this.untrusted?.dispose();
    this.untrusted = undefined;
  }

  dispose(): void {
    this.agentUp();
    this.trustGranted();
  }
}

const showLog: NoticeLink = { label: "Show Log", command: "pi.showLog" };
const openSettings: NoticeLink = { label: "Open Settings", command: "pi.openAgentSettings" };

export function duration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} seconds`;
  const minutes = Math.round(ms / 60_000);
  return minutes === 1 ? "a minute" : `${minutes} minutes`;
}

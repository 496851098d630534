import * as vscode from "vscode";

/** Workspace trust as the supervisor sees it (a seam: tests substitute an untrusted one). */
export interface WorkspaceTrust {
  readonly isTrusted: boolean;
  readonly onDidGrant: vscode.Event<void>;
}

export const vscodeWorkspaceTrust: WorkspaceTrust = {
  get isTrusted() {
    return vscode.workspace.isTrusted;
  },
  onDidGrant: vscode.workspace.onDidGrantWorkspaceTrust,
};

export const untrustedMessage =
  "Pi does not start an agent in an untrusted workspace: the agent can run commands and read project files. Trust the workspace to use Pi.";

/** A gate before each start: agents start only in a trusted workspace. */
export interface TrustGate extends vscode.Disposable {
  /** Throws (untrustedMessage) in an untrusted workspace, and notes that a start was wanted. */
  check(): void;
}

/**
 * The trust gate of one supervisor: while untrusted, the chat says why nothing starts; a start
 * asked for meanwhile is made once trust is granted. Trust alone starts nothing: only a start
 * the user asked for (the chat opened, a command).
 */
export function trustGate(
  trust: WorkspaceTrust,
  show: { setBlocked(message: string | undefined): void; untrusted(): void; granted(): void },
  startWanted: () => void,
): TrustGate {
  let wanted = false;
  show.setBlocked(trust.isTrusted ? undefined : untrustedMessage);
  const grant = trust.onDidGrant(() => {
    show.setBlocked(undefined);
    show.granted();
    if (wanted) startWanted();
  });
  return {
    check() {
      if (trust.isTrusted) return;
      wanted = true;
      show.setBlocked(untrustedMessage);
      show.untrusted();
      throw new Error(untrustedMessage);
    },
    dispose: () => grant.dispose(),
  };
}

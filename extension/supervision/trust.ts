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

import * as vscode from "vscode";

const section = () => vscode.workspace.getConfiguration("pi");

export const checkpointSettings = {
  /** Record files before the agent changes them (pi.checkpoints.enabled). */
  get enabled(): boolean {
    return section().get<boolean>("checkpoints.enabled", true);
  },
  /** The store's budget in bytes (pi.checkpoints.maxMegabytes). */
  get maxBytes(): number {
    return Math.max(1, section().get<number>("checkpoints.maxMegabytes", 200)) * 1024 * 1024;
  },
};

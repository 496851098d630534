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

/** The checkpoint store of this extension (global storage); set by installCheckpoints. */
let storeDir: string | undefined;

export function useCheckpointStore(dir: string): vscode.Disposable {
  storeDir = dir;
  return { dispose: () => (storeDir === dir ? (storeDir = undefined) : undefined) };
}

/** The store to record in; undefined while checkpoints are off. */
export function activeCheckpointStore(): string | undefined {
  return checkpointSettings.enabled ? storeDir : undefined;
}

/** For the bundled host, which records before its own write/edit tools run. */
export function checkpointLaunchArgs(): string[] {
  const dir = activeCheckpointStore();
  return dir ? ["--checkpoint-dir", dir] : [];
}

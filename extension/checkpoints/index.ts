/**
 * Checkpoints and rewind: files are recorded before the agent changes them (by the bundled host
 * itself, or here for other agents and the editor's own edits), kept in a content-addressed store
 * in the editor's global storage within a budget, and `pi.rewind` takes files and/or the
 * conversation back to any user message.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { pruneStore } from "../../shared/node/checkpoint-prune";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import type { AgentAttach } from "../supervision/supervisor-options";
import { Lifetime } from "../lifetime";
import { settings } from "../settings";
import { registerCheckpointContent } from "./diff-preview";
import { recordFileChanges } from "./recording";
import { rewind, type RewindRequest } from "./rewind";
import { errorText } from "../../shared/error-text";

export type { RewindRequest } from "./rewind";

/** A session as checkpoints see it (the registry's AgentSession fits). */
export interface CheckpointSession {
  readonly supervisor: AgentSupervisor;
  readonly chatAccess: { setInput(text: string): void };
}

export interface CheckpointServices {
  /** Registers hooks run on every agent process of every session. */
  everyAgent: { onAttach(hook: AgentAttach): void };
  /** The sessions (read lazily: the registry may be made after this is installed). */
  sessions(): { readonly all: readonly CheckpointSession[]; readonly active: CheckpointSession };
  /** The extension's global storage folder (context.globalStorageUri.fsPath); the store is its `checkpoints/`. */
  storageDir: string;
  log: vscode.LogOutputChannel;
  /** The base of relative paths in tool calls recorded here (default: the first workspace folder). */
  cwd?: () => string;
}

/** The installed checkpoints: the store agents record in, for whatever launches them. */
export interface Checkpoints extends vscode.Disposable {
  /** The store's folder; undefined while checkpoints are off (pi.checkpoints.enabled). */
  activeStore(): string | undefined;
  /** Takes files and/or the conversation of a session back (`pi.rewind` for the active one). */
  rewind(request: RewindRequest): Promise<unknown>;
}

export function installCheckpoints(services: CheckpointServices): Checkpoints {
  const { log } = services;
  const lifetime = new Lifetime();
  const dir = path.join(services.storageDir, "checkpoints");
  const activeStore = () => (settings.checkpointsEnabled ? dir : undefined);
  const live = new Set<string>();
  const cwd = services.cwd ?? (() => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd());

  const pruneOnce = async () => {
    if (!activeStore()) return;
    try {
      const inUse = () => services.sessions().all.flatMap((s) => (s.supervisor.state?.sessionId ? [s.supervisor.state.sessionId] : []));
      const result = await pruneStore(dir, { maxBytes: settings.checkpointsMaxBytes, keep: () => new Set([...live, ...inUse()]) });
      if (result.removedManifests || result.removedObjects) {
        log.info(`Checkpoints pruned: ${result.removedManifests} session(s), ${result.removedObjects} file version(s); ${result.bytesBefore} → ${result.bytesAfter} bytes`);
      }
    } catch (error) {
      log.warn(`Pruning checkpoints failed: ${errorText(error)}`);
    }
  };
  // One prune at a time: the runs that end meanwhile (eight sessions end together) make one more after it.
  let pruning: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  lifetime.add({ dispose: () => (stopped = true) });
  const prune = () => {
    if (pruning) return void (again = true);
    pruning = pruneOnce().finally(() => {
      pruning = undefined;
      if (again && !stopped) {
        again = false;
        prune();
      }
    });
  };

  services.everyAgent.onAttach(recordFileChanges({ store: activeStore, cwd, agentRecords: () => !settings.agentCommand, live, log }));
  services.everyAgent.onAttach((client, agentLifetime) => agentLifetime.add(client.onSettled(prune)));
  const startup = setTimeout(prune, 0);
  lifetime.add({ dispose: () => clearTimeout(startup) });

  lifetime.add(registerCheckpointContent(() => dir));
  const session = (supervisor?: AgentSupervisor) => {
    const { all, active } = services.sessions();
    const found = all.find((s) => s.supervisor === supervisor) ?? active;
    return { supervisor: found.supervisor, setInput: (text: string) => found.chatAccess.setInput(text) };
  };
  const deps = { session, store: activeStore, log };
  lifetime.add(vscode.commands.registerCommand("pi.rewind", (request?: RewindRequest) => rewind(deps, request ?? {})));
  lifetime.add(
    vscode.workspace.onDidChangeConfiguration((e) => {
      // Agents get the store when they start (--checkpoint-dir, or -e pi-checkpoints.js).
      if (!e.affectsConfiguration("pi.checkpoints.enabled")) return;
      for (const { supervisor } of services.sessions().all) {
        if (supervisor.client) void supervisor.restart().catch((error: unknown) => log.error(`Restart after a checkpoint setting change failed: ${String(error)}`));
      }
    }),
  );
  return { activeStore, rewind: (request) => rewind(deps, request), dispose: () => lifetime.dispose() };
}

/**
 * Finds what the agents change, for the review: the checkpoint store's records (the bundled host
 * and the Pi extension record before write/edit run; recording.ts for other agents and
 * editor_edit) give each file's before; the workspace's file events during a run add what the
 * records miss, such as files created, changed or deleted by `bash` (created: before = no file;
 * changed or deleted without a record: the before is unknown, and only Keep is offered).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { CheckpointRecord } from "../../shared/checkpoints/schema";
import { followManifest, type ManifestFollower } from "../../shared/node/checkpoint-manifest";
import { manifestPath, readObject } from "../../shared/node/checkpoint-store";
import { isStub } from "../../shared/node/sandbox/stubs";
import type { RpcClient } from "../../shared/rpc";
import type { AgentAttach } from "../supervision/supervisor-options";
import { Lifetime } from "../lifetime";
import type { Content } from "./file-change";
import { KnownFiles } from "./known-files";
import { isOwnWrite, readCurrent } from "./review-io";
import type { ReviewState } from "./review-state";
import { placeOf, realWorkspace } from "../checkpoints/restore-guard";

export interface TrackingOptions {
  /** Each agent process, with the session it works for (whose chat shows its changes). */
  everyAgent: { onAttach(hook: AgentAttach): void };
  /** The checkpoint store; undefined while checkpoints are off. */
  store(): string | undefined;
  /** The folders agents work in: a record of a path elsewhere (or under a protected name) is foreign and not taken in. */
  roots(): readonly string[];
  state: ReviewState;
  log: vscode.LogOutputChannel;
}

/** File events this long after a run still count as the run's (the watcher reports late). */
const GRACE_MS = 2000;
/** A run's first records can be written before its agent_start reaches us. */
const RUN_SLACK_MS = 2000;

export function trackAgentChanges(options: TrackingOptions): vscode.Disposable {
  const { state } = options;
  const lifetime = new Lifetime();
  /** The agents in a run, each with the editor session it works for. */
  const running = new Map<RpcClient, string>();
  let lastRunEnd = 0;
  /** Per editor session: when its agent's last run ended (file events come late). */
  const runEnded = new Map<string, number>();
  /** Per session id: how many of its manifest's records were taken in. */
  const taken = new Map<string, number>();
  /** Each manifest looked at, followed as it grows (each look reads only what was appended). */
  const followers = new Map<string, ManifestFollower>();
  const recordsOf = (store: string, sessionId: string): readonly CheckpointRecord[] => {
    const file = manifestPath(store, sessionId);
    let follower = followers.get(file);
    if (!follower) followers.set(file, (follower = followManifest(file)));
    return follower.records();
  };
  /** Per session id (the agent's): the editor session whose agent works on it, whose records they are. */
  const ownerOf = new Map<string, string>();
  /** When VS Code saved a document (the user's edit, not an agent's). */
  const saved = new Map<string, number>();
  const inRun = () => running.size > 0 || Date.now() - lastRunEnd < GRACE_MS;
  /**
   * Whose a file event is: the sessions in a run or just out of one. A file has no author on disk:
   * with two sessions at work at once, a change either may have made belongs to both.
   */
  const runningOwners = (): string[] => {
    const now = Date.now();
    return [...new Set([...running.values(), ...[...runEnded].filter(([, end]) => now - end < GRACE_MS).map(([owner]) => owner)])];
  };

  const beforeOf = (store: string, record: CheckpointRecord): Content | undefined => {
    if (record.skipped) return undefined;
    return record.before === null ? null : readObject(store, record.before);
  };

  /**
   * Per path, the first record since the user last decided on it: a record is read once, and may be
   * read before its tool has written (the file's event then finds the before here).
   */
  const recorded = new Map<string, { time: number; before: () => Content | undefined; owners: string[] }>();
  const recordOf = (file: string) => {
    const found = recorded.get(file);
    return found && found.time >= state.decidedAt(file) ? found : undefined;
  };

  /** Recorded in this run but not changed yet when looked at (the tool had not written): looked at again until the run ends. */
  const unchanged = new Map<string, string[]>();
  /**
   * Files taken in during runs: looked at again when a tool ends, since a look can fall in the
   * middle of a tool's write (another file's event, a truncated file read empty) and the write's
   * own event may have come before it ended.
   */
  const touched = new Map<string, { time: number; owners: string[] }>();
  const refreshTouched = () => {
    for (const [file, { time, owners }] of touched) {
      // Saved in the editor since: what is on disk now is the user's, not the agent's.
      if ((saved.get(file) ?? 0) >= time || !state.has(file)) continue;
      state.noteChange(file, () => undefined, readCurrent(file), false, owners);
    }
  };
  const takeIn = (file: string) => {
    const record = recordOf(file);
    // Saved in the editor since the record: the file on disk is the user's now, not the agent's.
    if (record && state.has(file) && (saved.get(file) ?? 0) > record.time) return void unchanged.delete(file);
    const owners = record?.owners ?? unchanged.get(file) ?? runningOwners();
    touched.set(file, { time: Date.now(), owners });
    if (record) state.noteChange(file, record.before, readCurrent(file), true, owners);
    if (state.has(file)) unchanged.delete(file);
    else unchanged.set(file, owners);
  };

  /** Takes in the records made since the last look: each file joins the review (or its agent version follows). */
  const syncRecords = () => {
    if (taken.size === 0 && unchanged.size === 0) return;
    const store = options.store();
    if (!store) return;
    for (const file of [...unchanged.keys()]) takeIn(file);
    let roots: string[] | undefined; // resolved once, and only when there are new records
    for (const [sessionId, count] of taken) {
      const records = recordsOf(store, sessionId);
      if (records.length === count) continue;
      taken.set(sessionId, records.length);
      for (const record of records.slice(count)) {
        if (record.time < state.decidedAt(record.path)) continue;
        // The store is writable by agents (pi sandboxed as a whole records there): Undo would write what a record says.
        roots ??= options.roots().map(realWorkspace);
        const place = placeOf(roots, record.path, "write");
        if ("refused" in place) {
          options.log.warn(`Review: a checkpoint record of ${JSON.stringify(record.path)} is not taken in: ${place.refused}`);
          continue;
        }
        const owners = ownerOf.has(sessionId) ? [ownerOf.get(sessionId)!] : runningOwners();
        const earlier = recordOf(record.path);
        if (!earlier) recorded.set(record.path, { time: record.time, before: () => beforeOf(store, record), owners });
        else for (const owner of owners) if (!earlier.owners.includes(owner)) earlier.owners.push(owner); // another session's record of the file: theirs too
        takeIn(record.path);
      }
    }
  };

  /** A session seen at a run's start: records older than the run are history. */
  const watchSession = (sessionId: string, runStart: number, owner: string) => {
    ownerOf.set(sessionId, owner);
    if (taken.has(sessionId)) return;
    const store = options.store();
    const records = store ? recordsOf(store, sessionId) : [];
    const older = records.findIndex((r) => r.time >= runStart - RUN_SLACK_MS);
    taken.set(sessionId, older === -1 ? records.length : older);
  };

  options.everyAgent.onAttach((client, agentLifetime, owner) => {
    let late: ReturnType<typeof setTimeout> | undefined;
    agentLifetime.add({ dispose: () => (running.delete(client), clearTimeout(late)) });
    agentLifetime.add(
      client.onEvent((event) => {
        if (event.type === "agent_start") {
          const runStart = Date.now();
          running.set(client, owner);
          void client.request("get_state", {}).then(
            (s) => (watchSession(s.sessionId, runStart, owner), syncRecords()),
            (error: unknown) => options.log.warn(`Review: the session of a run is unknown: ${String(error)}`),
          );
        } else if (event.type === "tool_execution_end") {
          syncRecords();
          refreshTouched();
        } else if (event.type === "agent_end") {
          running.delete(client);
          lastRunEnd = Date.now();
          runEnded.set(owner, lastRunEnd);
          syncRecords();
          clearTimeout(late);
          late = setTimeout(() => {
            syncRecords();
            if (running.size === 0) {
              unchanged.clear();
              touched.clear();
            }
            state.reconcile();
          }, GRACE_MS);
        }
      }),
    );
  });

  // The workspace's listing and its watcher start with the first agent, not at activation: a
  // window where Pi is never used pays for neither (#31).
  let known: KnownFiles | undefined;
  const startWatching = () => {
    if (known) return;
    known = new KnownFiles();
    const watcher = lifetime.add(vscode.workspace.createFileSystemWatcher("**/*"));
    lifetime.add(watcher.onDidCreate(onFileEvent("create")));
    lifetime.add(watcher.onDidChange(onFileEvent("change")));
    lifetime.add(watcher.onDidDelete(onFileEvent("delete")));
  };
  options.everyAgent.onAttach(() => startWatching());
  // bwrap's mount points for the missing protected names (an empty .envrc, .vscode/, …) come with
  // each sandboxed command and go when it ends: not the agent's changes. Seen once, their removal
  // is not one either.
  const stubsSeen = new Set<string>();
  const isSandboxStub = (file: string) => {
    if (isStub(file)) {
      stubsSeen.add(file);
      return true;
    }
    return stubsSeen.delete(file) && !fs.existsSync(file);
  };
  const onFileEvent = (kind: "create" | "change" | "delete") => (uri: vscode.Uri) => {
    const file = uri.fsPath;
    const existed = known?.existed(file);
    const fileNow = kind !== "delete" && isFile(file);
    known?.note(file, fileNow); // folders are not files: deleting one is not a file's deletion
    if (file.split(path.sep).includes(".git") || isOwnWrite(file) || isSandboxStub(file)) return;
    if (!inRun()) {
      if (state.has(file)) state.reconcile([file]);
      return;
    }
    syncRecords();
    if (Date.now() - (saved.get(file) ?? 0) < GRACE_MS) return; // saved in the editor: the user's
    const record = recordOf(file);
    // The record's session, and whoever is at work now (another session's command may change a file recorded before).
    const owners = [...new Set([...(record?.owners ?? []), ...runningOwners()])];
    touched.set(file, { time: Date.now(), owners });
    if (record) return state.noteChange(file, record.before, readCurrent(file), true, owners);
    if (state.has(file)) return state.noteChange(file, () => undefined, readCurrent(file), false, owners);
    if (kind === "delete" ? existed === false : !fileNow) return; // a file that came and went, or a folder
    // Not recorded: a command's change. Created only if there was no file (a "create" event can be an overwrite).
    state.noteChange(file, () => (kind === "create" && existed === false ? null : undefined), readCurrent(file), false, owners);
  };
  lifetime.add(
    vscode.workspace.onDidChangeTextDocument((e) => {
      // Also during a run: only exact reverts and files back as before are taken in. The buffer
      // that just changed is what the user sees, even before VS Code marks it dirty (that comes as
      // an event of its own, without content changes): reading the disk then missed a revert.
      if (e.document.uri.scheme === "file" && state.has(e.document.uri.fsPath)) state.reconcile([e.document.uri.fsPath], Buffer.from(e.document.getText(), "utf8"));
    }),
  );
  // Marked before the save writes too: the file's event can come before onDidSave, and it is the user's.
  const noteSave = (d: vscode.TextDocument) => d.uri.scheme === "file" && saved.set(d.uri.fsPath, Date.now());
  lifetime.add(vscode.workspace.onWillSaveTextDocument((e) => noteSave(e.document)));
  lifetime.add(vscode.workspace.onDidSaveTextDocument(noteSave));
  return lifetime;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

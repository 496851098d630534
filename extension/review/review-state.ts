/**
 * The changes pending review in this window: every file an agent created, edited or deleted since
 * the user last kept or undid it, across runs and sessions (the files on disk are shared, so one
 * before per file). The one owner of that list; the view, the lenses and the chat read it here.
 */
import * as vscode from "vscode";
import type { ChangesSummary } from "../../shared/webview-protocol";
import { changeCounts, revertedByUser, sameContent, stillChanged, type Content, type FileChange } from "./file-change";
import { readCurrent } from "./review-io";

/** The counts the Changes view's title and the chat's changes line show (declared once, in the chat's protocol). */
export type ReviewSummary = ChangesSummary;

/** What the feature offers to others (the chat's "changes" summary): of one session, or of all. */
export interface ChangesReview {
  readonly onDidChange: vscode.Event<void>;
  summary(owner?: string): ReviewSummary;
  files(owner?: string): readonly FileChange[];
  /** Sessions that closed leave their changes to `heir`. */
  adopt(live: ReadonlySet<string>, heir: string): void;
  /** The files of the session's agents the user undid (all or part) since the last call: its agent is told with the next message. */
  takeUndone(owner: string): string[];
}

/** Whether a change is the session's (`owner` undefined: every session's). */
export const ownedBy = (change: FileChange, owner: string | undefined): boolean => owner === undefined || change.owners.has(owner);

export class ReviewState implements ChangesReview, vscode.Disposable {
  private readonly changes = new Map<string, FileChange>();
  /** When the user last decided on a path (kept or undid it): records made earlier are history. */
  private readonly decided = new Map<string, number>();
  /** The window's sessions (adopt): changes belong to live ones. */
  private sessions: { live: ReadonlySet<string>; heir: string } | undefined;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changeEmitter.event;
  /** Per session: files whose agent's change the user undid, not yet told, with the conversation that made it. */
  private readonly undone = new Map<string, Map<string, string | undefined>>();

  /** `conversationOf`: the conversation a window session holds now (its agent's session id). */
  constructor(private readonly conversationOf: (owner: string) => string | undefined = () => undefined) {}

  get(path: string): FileChange | undefined {
    return this.changes.get(path);
  }

  has(path: string): boolean {
    return this.changes.has(path);
  }

  /** The files under review: a session's (its agents changed them), or all of them. */
  files(owner?: string): FileChange[] {
    return [...this.changes.values()].filter((change) => ownedBy(change, owner)).sort((a, b) => a.path.localeCompare(b.path));
  }

  summary(owner?: string): ReviewSummary {
    let added = 0;
    let removed = 0;
    const files = this.files(owner);
    for (const change of files) {
      const counts = changeCounts(change);
      added += counts?.added ?? 0;
      removed += counts?.removed ?? 0;
    }
    return { files: files.length, added, removed };
  }

  decidedAt(path: string): number {
    return this.decided.get(path) ?? 0;
  }

  /**
   * An agent changed the file: it joins the review with this before (while it is pending, the
   * first one wins, except that a checkpoint record wins over a guess from file events) and the
   * agent's version as it is now. `owners`: the sessions whose agents made this change (they join
   * the file's owners).
   */
  noteChange(path: string, before: () => Content | undefined, agent: Content, fromRecord: boolean, owners: Iterable<string>): void {
    const known = this.changes.get(path);
    if (known) {
      // Another session changed the file too: it is theirs as well (its chat shows it now).
      const joining = [...this.placed(owners)].filter((owner) => !known.owners.has(owner));
      for (const owner of joining) known.owners.add(owner);
      if (joining.length > 0) this.changeEmitter.fire();
      // A file event can come before the record that says what the file was.
      const recorded = fromRecord && known.guessed ? before() : undefined;
      if (recorded !== undefined) {
        known.before = recorded;
        delete known.guessed;
      } else if (sameContent(known.agent, agent)) return;
      known.agent = agent;
      // Created and deleted again in the run (a command's temporary file): nothing to review.
      if (!stillChanged(known, agent)) this.changes.delete(path);
    } else {
      const change: FileChange = { path, before: before(), agent, owners: this.placed(owners), ...(fromRecord ? {} : { guessed: true }) };
      if (!stillChanged(change, agent)) return;
      this.changes.set(path, change);
    }
    this.changeEmitter.fire();
  }

  /** The user kept or undid part of a file: the new before and agent version (the file leaves the review when nothing differs). */
  update(path: string, next: { before?: Content; agent?: Content }): void {
    const change = this.changes.get(path);
    if (!change) return;
    if (next.before !== undefined) change.before = next.before;
    if (next.agent !== undefined) change.agent = next.agent;
    if (!stillChanged(change, readCurrent(path))) this.remove(path);
    else this.changeEmitter.fire();
  }

  /**
   * Sessions that closed leave their changes to `heir` (the side bar's session, always there): the
   * files on disk still wait for review, and a chat must show them. Kept for what comes later: a
   * closed session's late file events (its last run's grace) go to the heir too.
   */
  adopt(live: ReadonlySet<string>, heir: string): void {
    this.sessions = { live, heir };
    let changed = false;
    for (const change of this.changes.values()) {
      const next = this.placed(change.owners);
      if (next.size === change.owners.size && [...next].every((owner) => change.owners.has(owner))) continue;
      change.owners.clear();
      for (const owner of next) change.owners.add(owner);
      changed = true;
    }
    if (changed) this.changeEmitter.fire();
  }

  /** Owners that are sessions of the window: a closed one's (or none) go to the heir. */
  private placed(owners: Iterable<string>): Set<string> {
    const known = this.sessions;
    if (!known) return new Set(owners);
    const live = [...owners].filter((owner) => known.live.has(owner));
    return new Set(live.length > 0 ? live : [known.heir]);
  }

  /** The user undid the change to `path`, or part of it: its agents' sessions are told (takeUndone). */
  noteUndone(path: string): void {
    for (const owner of this.changes.get(path)?.owners ?? []) {
      const files = this.undone.get(owner) ?? new Map<string, string | undefined>();
      files.set(path, this.conversationOf(owner));
      this.undone.set(owner, files);
    }
  }

  /** Only to the conversation the undo happened in: a new or another one (New Session, Resume, another agent) never made those changes. */
  takeUndone(owner: string): string[] {
    const now = this.conversationOf(owner);
    // A conversation not known (an agent that reports none) is never taken for the same one.
    const files = now === undefined ? [] : [...(this.undone.get(owner) ?? [])].filter(([, conversation]) => conversation === now).map(([file]) => file).sort();
    this.undone.delete(owner);
    return files;
  }

  /** The user decided on the whole file. */
  remove(path: string): void {
    this.decided.set(path, Date.now());
    if (this.changes.delete(path)) this.changeEmitter.fire();
  }

  /**
   * Follows what the user did to files under review: one back as it was before leaves the review
   * (a rewind, or undone by hand), a hunk put back exactly (the diff's revert arrow) is undone.
   * `seen`: the file's content as the caller just saw it (one path), else each is read.
   */
  reconcile(paths: Iterable<string> = [...this.changes.keys()], seen?: Content): void {
    let changed = false;
    for (const path of paths) {
      const change = this.changes.get(path);
      if (!change) continue;
      const current = seen ?? readCurrent(path);
      const agent = revertedByUser(change, current);
      if (agent !== undefined) change.agent = agent;
      const back = !stillChanged(change, current);
      if (agent !== undefined || back) this.noteUndone(path);
      if (back) this.changes.delete(path);
      changed ||= agent !== undefined || !this.changes.has(path);
    }
    if (changed) this.changeEmitter.fire();
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}

import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AgentMessage } from "../../../shared/protocol";
import type { NewEntry, SessionEntry, SessionHeader } from "../../../shared/session-format/schema";
import { SESSION_VERSION } from "../../../shared/session-format/version";
import { buildSessionContext, type SessionContext } from "./session-context";
import { loadSessionFile, sessionFileName, SessionWriter } from "./session-file";
import { UnpersistableEntryError } from "./unsaveable";

export interface TreeNode {
  entry: SessionEntry;
  children: TreeNode[];
  label?: string;
  labelTimestamp?: string;
}

export interface SessionManagerOptions {
  cwd: string;
  /** Folder for new session files; undefined: in memory only (--no-session). */
  sessionDir?: string;
}

/**
 * One session: its entries (a tree linked by id/parentId), the current leaf, and its file.
 * Entries are appended to the file as they come, once the first message exists: the user's prompt
 * is on disk before the model is called, so a crash before the first reply loses nothing the user
 * saw (pi waits for the first reply; a session without any message still leaves no file).
 */
export class SessionManager {
  header!: SessionHeader;
  private entries: SessionEntry[] = [];
  private readonly byId = new Map<string, SessionEntry>();
  leafId: string | null = null;
  private writer: SessionWriter | undefined;
  private unwritten: SessionEntry[] = [];
  /** Lines of a loaded file that could not be read. */
  skippedLines = 0;
  /**
   * Counts the sessions this manager has held: each new one, opened file and fork (a new session
   * too) adds one; moving the leaf within a session does not. What is scoped to one session (the
   * permission allowances) is dropped when it changes, so reopening a file starts afresh.
   */
  generation = 0;

  constructor(private readonly options: SessionManagerOptions) {
    this.startNew();
  }

  get cwd(): string {
    return this.options.cwd;
  }
  get sessionId(): string {
    return this.header.id;
  }
  get sessionFile(): string | undefined {
    return this.writer?.file;
  }
  get persistent(): boolean {
    return this.options.sessionDir !== undefined;
  }

  /** Starts an empty session (a new file once something is worth keeping). */
  startNew(parentSession?: string, id: string = randomUUID()): void {
    this.generation++;
    const timestamp = new Date().toISOString();
    this.header = { type: "session", version: SESSION_VERSION, id, timestamp, cwd: this.options.cwd, ...(parentSession ? { parentSession } : {}) };
    this.reset([]);
    this.writer = this.options.sessionDir ? new SessionWriter(join(this.options.sessionDir, sessionFileName(timestamp, id)), this.header) : undefined;
  }

  /** Opens an existing file; later entries are appended to it. */
  open(file: string): void {
    const loaded = loadSessionFile(resolve(file));
    this.generation++;
    this.header = loaded.header;
    this.reset(loaded.entries);
    this.skippedLines = loaded.skippedLines;
    this.writer = new SessionWriter(resolve(file), this.header);
    if (loaded.migrated) this.writer.rewrite(this.entries);
    else this.writer.terminateLastLine();
    this.leafId = this.entries.at(-1)?.id ?? null;
  }

  private reset(entries: SessionEntry[]): void {
    this.entries = entries;
    this.byId.clear();
    for (const entry of entries) this.byId.set(entry.id, entry);
    this.unwritten = [];
    this.skippedLines = 0;
    this.leafId = null;
  }

  allEntries(): readonly SessionEntry[] {
    return this.entries;
  }

  get(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }

  /** Adds an entry as a child of the leaf, makes it the leaf, and persists it. */
  append(entry: NewEntry): SessionEntry {
    const full = { ...entry, id: this.newId(), parentId: this.leafId, timestamp: new Date().toISOString() } as SessionEntry;
    const parentId = this.leafId;
    this.entries.push(full);
    this.byId.set(full.id, full);
    this.leafId = full.id;
    try {
      this.persist(full);
    } catch (error) {
      // Nothing was written (the lines are encoded before the write): the tree goes back to the file's.
      this.entries.pop();
      this.byId.delete(full.id);
      this.leafId = parentId;
      this.unwritten = this.unwritten.filter((e) => e !== full);
      if (error instanceof RangeError || error instanceof TypeError) throw new UnpersistableEntryError(full.type, error);
      throw error;
    }
    return full;
  }

  appendMessage(message: AgentMessage): SessionEntry {
    return this.append({ type: "message", message });
  }

  private persist(entry: SessionEntry): void {
    if (!this.writer) return;
    if (this.writer.exists) return this.writer.append([entry]);
    this.unwritten.push(entry);
    if (this.unwritten.some((e) => e.type === "message")) {
      this.writer.append(this.unwritten);
      this.unwritten = [];
    }
  }

  private newId(): string {
    for (;;) {
      const id = randomBytes(4).toString("hex");
      if (!this.byId.has(id)) return id;
    }
  }

  /** Entries from the root to `leafId` (default: the current leaf). */
  branch(leafId: string | null = this.leafId): SessionEntry[] {
    const path: SessionEntry[] = [];
    for (let id = leafId; id !== null; ) {
      const entry = this.byId.get(id);
      if (!entry) break;
      path.push(entry);
      id = entry.parentId;
    }
    return path.reverse();
  }

  /** Moves the leaf: the next entry continues from `entryId` (null: a new root). */
  moveLeaf(entryId: string | null): void {
    if (entryId !== null && !this.byId.has(entryId)) throw new Error(`Entry not found: ${entryId}`);
    this.leafId = entryId;
  }

  context(): SessionContext {
    return buildSessionContext(this.branch());
  }

  /** The display name: the latest session_info entry. */
  get name(): string | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry.type === "session_info") return entry.name;
    }
    return undefined;
  }

  tree(): TreeNode[] {
    const nodes = new Map<string, TreeNode>();
    const roots: TreeNode[] = [];
    const labels = new Map<string, { label?: string; timestamp: string }>();
    for (const entry of this.entries) if (entry.type === "label") labels.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
    for (const entry of this.entries) {
      const node: TreeNode = { entry, children: [] };
      const label = labels.get(entry.id);
      if (label?.label) {
        node.label = label.label;
        node.labelTimestamp = label.timestamp;
      }
      nodes.set(entry.id, node);
      const parent = entry.parentId ? nodes.get(entry.parentId) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    return roots;
  }

  /** Entries appended after `since` (all when undefined), in append order. */
  entriesSince(since?: string): SessionEntry[] {
    if (since === undefined) return [...this.entries];
    const at = this.entries.findIndex((e) => e.id === since);
    if (at === -1) throw new Error(`Entry not found: ${since}`);
    return this.entries.slice(at + 1);
  }

  /**
   * A new session holding the branch up to `beforeEntryId` (exclusive) — or the whole current
   * branch — with this one as its parent. The manager switches to it.
   */
  forkTo(beforeEntryId?: string): void {
    const path = this.branch();
    const cut = beforeEntryId === undefined ? path.length : path.findIndex((e) => e.id === beforeEntryId);
    if (cut === -1) throw new Error(`Entry not found: ${beforeEntryId}`);
    const parent = this.sessionFile;
    const kept = path.slice(0, cut);
    this.startNew(parent);
    for (const entry of kept) {
      this.entries.push(entry);
      this.byId.set(entry.id, entry);
      this.leafId = entry.id;
    }
    // The new file is written now only if it holds a message; otherwise with the first one.
    if (this.writer && kept.length) {
      if (kept.some((e) => e.type === "message")) this.writer.append(kept);
      else this.unwritten.push(...kept);
    }
  }

  /** The most recently modified session file in `dir`. */
  static mostRecent(dir: string): string | undefined {
    if (!existsSync(dir)) return undefined;
    return readdirSync(dir)
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => ({ file: join(dir, f), mtime: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime)[0]?.file;
  }
}

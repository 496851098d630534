import { Type } from "@sinclair/typebox";
import { lazySchema, type StaticOf } from "../protocol/lazy-schema";

/**
 * The checkpoint store, shared by the agent host (which records before its write/edit tools run)
 * and the extension (which records for other agents and its own editor edits, and rewinds):
 *
 *   <store>/objects/<sha256>            file contents, content-addressed
 *   <store>/sessions/<sessionId>.jsonl  one CheckpointRecord per line, in the order recorded
 *
 * The store lives outside the workspace (the editor's global storage) and never uses git.
 */
export const OBJECTS_DIR = "objects";
export const SESSIONS_DIR = "sessions";
/** The environment variable that gives the store to the Pi extension dist/pi-checkpoints.mjs. */
export const CHECKPOINT_DIR_ENV = "PI_VSCODE_CHECKPOINT_DIR";
/** Files larger than this are not copied: their record says `skipped: "tooLarge"`. */
export const DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024;

export const ContentHash = lazySchema(() => Type.String({ pattern: "^[0-9a-f]{64}$" }));

/** A file as it was before a turn first touched it. The first record of a path in a turn wins. */
export const CheckpointRecord = lazySchema(() => Type.Object({
  /** Entry id of the user message that began the turn. */
  turn: Type.String({ minLength: 1 }),
  /** Absolute path of the file. */
  path: Type.String({ minLength: 1 }),
  /** sha256 of its content under objects/; null: the file did not exist. */
  before: Type.Union([ContentHash(), Type.Null()]),
  /** Epoch ms. */
  time: Type.Number(),
  /**
   * Captured when the agent reported the tool call (tool_execution_start), which may be after the
   * tool changed the file: a rewind that would change nothing then cannot trust it.
   */
  late: Type.Optional(Type.Literal(true)),
  /** The content was not kept (before is null then, and the file cannot be restored). */
  skipped: Type.Optional(Type.Union([Type.Literal("tooLarge"), Type.Literal("unreadable")])),
}));
export type CheckpointRecord = StaticOf<typeof CheckpointRecord>;

/** One file of a rewind: write it back, delete it (it did not exist), or say why it cannot be restored. */
export type RestoreStep =
  | { path: string; action: "write"; hash: string; late?: true }
  | { path: string; action: "delete" }
  | { path: string; action: "unavailable"; reason: string };

/** A session file name for a session id (ids are uuids; anything else is made safe). */
export function manifestName(sessionId: string): string {
  return `${sessionId.replace(/[^A-Za-z0-9._-]/g, "_")}.jsonl`;
}

import type { CheckpointRecord, RestoreStep } from "./schema";

/** Which records a rewind to a user message undoes. */
export interface RewindSelection {
  /** That message's entry id and those of every later user message on the branch. */
  turns: ReadonlySet<string>;
  /** When that message was sent (epoch ms): records made since then count too (turns of abandoned branches). */
  since?: number;
}

/**
 * Every path touched by the selected turns, restored to its earliest recorded content among
 * them: that is the file as it was before the first of those turns changed it. Records come from
 * one or more manifests, each in recording order; ties in time keep that order.
 */
export function restorePlan(records: readonly CheckpointRecord[], selection: RewindSelection): RestoreStep[] {
  const since = selection.since;
  const chosen = records
    .map((record, order) => ({ record, order }))
    .filter(({ record }) => selection.turns.has(record.turn) || (since !== undefined && record.time >= since))
    .sort((a, b) => a.record.time - b.record.time || a.order - b.order);
  const earliest = new Map<string, CheckpointRecord>();
  for (const { record } of chosen) if (!earliest.has(record.path)) earliest.set(record.path, record);
  return [...earliest.values()].map((record): RestoreStep => {
    if (record.skipped) return { path: record.path, action: "unavailable", reason: record.skipped === "tooLarge" ? "too large to keep" : "could not be read" };
    if (record.before === null) return { path: record.path, action: "delete" };
    return { path: record.path, action: "write", hash: record.before, ...(record.late ? { late: true as const } : {}) };
  });
}

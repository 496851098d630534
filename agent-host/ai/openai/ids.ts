import { createHash } from "node:crypto";

const shortHash = (s: string): string => createHash("sha256").update(s).digest("hex").slice(0, 10);

/** Keeps [A-Za-z0-9_-] and at most `max` characters; a longer id becomes a prefix plus a hash, so it stays unique. */
export function limitId(id: string, max: number): string {
  const clean = id.replace(/[^A-Za-z0-9_-]/g, "_");
  if (clean.length <= max) return clean;
  const hash = shortHash(id);
  return `${clean.slice(0, max - hash.length - 1)}_${hash}`;
}

/**
 * Our Responses tool-call ids are `<call_id>|<item id>`: the call id pairs a call with its
 * result, the item id (fc_…) pairs it with the reasoning item before it when replayed.
 */
export function splitToolCallId(id: string): { callId: string; itemId?: string } {
  const bar = id.indexOf("|");
  return bar < 0 ? { callId: id } : { callId: id.slice(0, bar), itemId: id.slice(bar + 1) || undefined };
}

/** Chat Completions: a tool call id of at most 40 characters (OpenAI's limit). */
export function chatToolCallId(id: string): string {
  return limitId(splitToolCallId(id).callId, 40);
}

/** Responses: a call_id of at most 64 characters. */
export function responsesCallId(id: string): string {
  return limitId(splitToolCallId(id).callId, 64);
}

/**
 * `store()`/`load()` values kept in the session as Pi keeps them: each script that succeeds and
 * wrote values appends a `codemode-store` custom entry `{ set, delete }`; `load()` sees the entries
 * on the current branch applied from the root, so a resumed session keeps its values and each
 * branch sees only what was written on its path.
 */
import type { StoreWrites } from "./protocol";

export const CODEMODE_STORE_ENTRY = "codemode-store";

/** Where the values live: the session (by the host), or memory (a session-less run). */
export interface CodemodeStore {
  read(): Record<string, unknown>;
  write(writes: StoreWrites): void;
}

const isWrites = (data: unknown): data is StoreWrites => {
  if (typeof data !== "object" || data === null) return false;
  const { set, delete: deleted } = data as { set?: unknown; delete?: unknown };
  return typeof set === "object" && set !== null && !Array.isArray(set) && Array.isArray(deleted) && deleted.every((k) => typeof k === "string");
};

/** The values on a branch (root first): deletes, then sets, entry by entry. */
export function readStore(branch: readonly { type: string; customType?: unknown; data?: unknown }[]): Record<string, unknown> {
  const values = new Map<string, unknown>();
  for (const entry of branch) {
    if (entry.type !== "custom" || entry.customType !== CODEMODE_STORE_ENTRY || !isWrites(entry.data)) continue;
    for (const key of entry.data.delete) values.delete(key);
    for (const [key, value] of Object.entries(entry.data.set)) values.set(key, value);
  }
  return Object.fromEntries(values);
}

export function memoryStore(): CodemodeStore {
  const values = new Map<string, unknown>();
  return {
    read: () => Object.fromEntries(values),
    write(writes) {
      for (const key of writes.delete) values.delete(key);
      for (const [key, value] of Object.entries(writes.set)) values.set(key, value);
    },
  };
}

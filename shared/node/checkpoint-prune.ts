/**
 * Keeps the checkpoint store within a budget. When it is over: every object no manifest refers
 * to goes, then the oldest manifests (never those of the sessions in use) with their objects. Objects written very recently are
 * kept even when unreferenced: their record may be about to be appended by another process.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { manifestName, OBJECTS_DIR, SESSIONS_DIR } from "../checkpoints/schema";
import { readManifest } from "./checkpoint-store";

export interface PruneOptions {
  maxBytes: number;
  /** Session ids whose manifests stay whatever their age. */
  keep?: ReadonlySet<string>;
  now?: number;
  /** Unreferenced objects younger than this stay (ms; default one minute). */
  graceMs?: number;
}

export interface PruneResult {
  bytesBefore: number;
  bytesAfter: number;
  removedManifests: number;
  removedObjects: number;
}

interface StoredFile {
  file: string;
  bytes: number;
  mtimeMs: number;
}

function listFiles(dir: string): StoredFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const stat = fs.statSync(path.join(dir, name));
      return stat.isFile() ? [{ file: path.join(dir, name), bytes: stat.size, mtimeMs: stat.mtimeMs }] : [];
    } catch {
      return [];
    }
  });
}

function remove(file: string): boolean {
  try {
    fs.rmSync(file, { force: true });
    return true;
  } catch {
    return false;
  }
}

export function pruneStore(dir: string, options: PruneOptions): PruneResult {
  const now = options.now ?? Date.now();
  const grace = options.graceMs ?? 60_000;
  const keptNames = new Set([...(options.keep ?? [])].map(manifestName));
  const listed = listFiles(path.join(dir, SESSIONS_DIR));
  const objects = new Map(listFiles(path.join(dir, OBJECTS_DIR)).map((o) => [path.basename(o.file), o]));
  const sum = (files: Iterable<StoredFile>) => [...files].reduce((total, f) => total + f.bytes, 0);
  const bytesBefore = sum(listed) + sum(objects.values());
  // Within budget (the usual case): nothing is read, nothing goes.
  if (bytesBefore <= options.maxBytes) return { bytesBefore, bytesAfter: bytesBefore, removedManifests: 0, removedObjects: 0 };
  const manifests = listed.map((m) => ({ ...m, hashes: hashesOf(m.file) }));

  const refs = new Map<string, number>();
  for (const m of manifests) for (const hash of m.hashes) refs.set(hash, (refs.get(hash) ?? 0) + 1);
  let bytes = bytesBefore;
  let removedObjects = 0;
  const collect = (name: string) => {
    const object = objects.get(name);
    if (!object || (refs.get(name) ?? 0) > 0 || now - object.mtimeMs < grace) return;
    if (remove(object.file)) {
      objects.delete(name);
      bytes -= object.bytes;
      removedObjects++;
    }
  };
  for (const name of [...objects.keys()]) collect(name);

  let removedManifests = 0;
  const oldestFirst = manifests.filter((m) => !keptNames.has(path.basename(m.file))).sort((a, b) => a.mtimeMs - b.mtimeMs);
  for (const manifest of oldestFirst) {
    if (bytes <= options.maxBytes) break;
    if (!remove(manifest.file)) continue;
    removedManifests++;
    bytes -= manifest.bytes;
    for (const hash of manifest.hashes) {
      refs.set(hash, (refs.get(hash) ?? 1) - 1);
      collect(hash);
    }
  }
  return { bytesBefore, bytesAfter: bytes, removedManifests, removedObjects };
}

/** Distinct content hashes a manifest refers to. */
function hashesOf(file: string): Set<string> {
  const hashes = new Set<string>();
  for (const record of readManifest(file)) if (record.before) hashes.add(record.before);
  return hashes;
}

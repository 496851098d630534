/**
 * Keeps the checkpoint store within a budget. When it is over: every object no manifest refers
 * to goes, then the oldest manifests (never those of the sessions in use) with their objects. Objects written very recently are
 * kept even when unreferenced: their record may be about to be appended by another process.
 * Asynchronous: it runs in the extension host at every run's end, and a store holds tens of
 * thousands of objects, each looked at (issue 31: no file I/O that blocks the extension host).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { manifestName, OBJECTS_DIR, SESSIONS_DIR } from "../checkpoints/schema";
import { MAX_MANIFEST_BYTES, parseRecords } from "./checkpoint-store";
import { readStoredFileAsync } from "./stored-file";

export interface PruneOptions {
  maxBytes: number;
  /** Session ids whose manifests stay whatever their age; a function is asked again before each removal (a session may start while the prune runs). */
  keep?: ReadonlySet<string> | (() => ReadonlySet<string>);
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

/** Files looked at at once: enough to keep libuv's threads busy, few enough that each turn of the event loop stays short. */
const AT_ONCE = 64;

async function listFiles(dir: string): Promise<StoredFile[]> {
  const files: StoredFile[] = [];
  let names: string[] = [];
  const look = async () => {
    const stats = await Promise.all(names.map((name) => fs.promises.lstat(path.join(dir, name)).then((stat) => ({ name, stat }), () => undefined)));
    for (const found of stats) if (found?.stat.isFile()) files.push({ file: path.join(dir, found.name), bytes: found.stat.size, mtimeMs: found.stat.mtimeMs });
    names = [];
  };
  try {
    // Read a few entries at a time (a folder of tens of thousands read whole is one long task).
    for await (const entry of await fs.promises.opendir(dir, { bufferSize: AT_ONCE })) {
      names.push(entry.name);
      if (names.length >= AT_ONCE) await look();
    }
  } catch {
    return files;
  }
  await look();
  return files;
}

async function remove(file: string): Promise<boolean> {
  try {
    await fs.promises.rm(file, { force: true });
    return true;
  } catch {
    return false;
  }
}

export async function pruneStore(dir: string, options: PruneOptions): Promise<PruneResult> {
  const now = options.now ?? Date.now();
  const grace = options.graceMs ?? 60_000;
  const keptNow = () => new Set([...((typeof options.keep === "function" ? options.keep() : options.keep) ?? [])].map(manifestName));
  const listed = await listFiles(path.join(dir, SESSIONS_DIR));
  const objects = new Map((await listFiles(path.join(dir, OBJECTS_DIR))).map((o) => [path.basename(o.file), o]));
  const sum = (files: Iterable<StoredFile>) => [...files].reduce((total, f) => total + f.bytes, 0);
  const bytesBefore = sum(listed) + sum(objects.values());
  // Within budget (the usual case): nothing is read, nothing goes.
  if (bytesBefore <= options.maxBytes) return { bytesBefore, bytesAfter: bytesBefore, removedManifests: 0, removedObjects: 0 };
  const manifests: (StoredFile & { hashes: Set<string> })[] = [];
  for (const m of listed) manifests.push({ ...m, hashes: await hashesOf(m.file) });

  const refs = new Map<string, number>();
  for (const m of manifests) for (const hash of m.hashes) refs.set(hash, (refs.get(hash) ?? 0) + 1);
  let bytes = bytesBefore;
  let removedObjects = 0;
  const collect = async (name: string) => {
    const object = objects.get(name);
    if (!object || (refs.get(name) ?? 0) > 0 || now - object.mtimeMs < grace) return;
    // Touched since it was listed: a record written meanwhile refers to it again (storeObject touches a copy it reuses).
    const current = await fs.promises.lstat(object.file).catch(() => undefined);
    if (current && current.mtimeMs > object.mtimeMs) return;
    if (await remove(object.file)) {
      objects.delete(name);
      bytes -= object.bytes;
      removedObjects++;
    }
  };
  for (const name of [...objects.keys()]) await collect(name);

  let removedManifests = 0;
  const oldestFirst = manifests.sort((a, b) => a.mtimeMs - b.mtimeMs);
  for (const manifest of oldestFirst) {
    if (bytes <= options.maxBytes) break;
    if (keptNow().has(path.basename(manifest.file))) continue;
    if (!(await remove(manifest.file))) continue;
    removedManifests++;
    bytes -= manifest.bytes;
    for (const hash of manifest.hashes) {
      refs.set(hash, (refs.get(hash) ?? 1) - 1);
      await collect(hash);
    }
  }
  return { bytesBefore, bytesAfter: bytes, removedManifests, removedObjects };
}

/** Distinct content hashes a manifest refers to (read as readManifest reads it, off the event loop's thread). */
async function hashesOf(file: string): Promise<Set<string>> {
  const hashes = new Set<string>();
  const read = await readStoredFileAsync(file, MAX_MANIFEST_BYTES).catch(() => undefined);
  if (!read || "refused" in read) return hashes;
  for (const record of parseRecords(read.content.toString("utf8"))) if (record.before) hashes.add(record.before);
  return hashes;
}

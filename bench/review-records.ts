/**
 * `npx tsx bench/review-records.ts`: what the review's look at the checkpoint records costs per
 * file event of a run (extension/review/review-tracking.ts syncRecords, at every file event, tool
 * end and run end). Two sessions' manifests of 100 and 1,000 records each (the second ten times
 * a long session), 10,000 file events (an `npm install` in the sandbox makes more), a record
 * appended every 10 events; each event looks at both manifests: read whole each time (before) or
 * followed, reading what was appended (shared/node/checkpoint-manifest.ts). Only the looks are
 * timed. Medians (min–max) of 5 rounds. Prints only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { followManifest } from "../shared/node/checkpoint-manifest";
import { captureText, manifestPath, readRecords, recordCaptured } from "../shared/node/checkpoint-store";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
const EVENTS = 10_000;
const SESSIONS = ["s1", "s2"];

/** The time the looks took over the events (ms). */
function round(records: number, followed: boolean): number {
  const store = mkdtempSync(join(tmpdir(), "review-records-"));
  try {
    const add = (session: string, i: number) => recordCaptured(store, session, "t1", `/work/project/src/file-${i}.ts`, captureText(`content ${i}`, 1000));
    for (const session of SESSIONS) for (let i = 0; i < records; i++) add(session, i);
    const followers = SESSIONS.map((session) => followManifest(manifestPath(store, session)));
    let seen = 0;
    let looking = 0;
    for (let event = 0; event < EVENTS; event++) {
      if (event % 10 === 0) add("s2", records + event);
      const started = performance.now();
      for (const [i, session] of SESSIONS.entries()) seen += followed ? followers[i]!.records().length : readRecords(store, session).length;
      looking += performance.now() - started;
    }
    if (seen < EVENTS * records) throw new Error("records missing");
    return looking;
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

for (const records of [100, 1_000]) {
  for (const followed of [false, true]) {
    const times = Array.from({ length: 5 }, () => round(records, followed));
    console.log(`${records.toLocaleString("en-US")} records a session, ${EVENTS.toLocaleString("en-US")} file events: ${followed ? "followed" : "read whole"} ${fmt(times)}, ${((median(times) / EVENTS) * 1000).toFixed(1)} µs an event`);
  }
}

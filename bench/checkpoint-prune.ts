/**
 * `npx tsx bench/checkpoint-prune.ts`: what keeping the checkpoint store within its budget costs
 * the extension host at each run's end (extension/checkpoints/index.ts, after every agent run).
 * A store of 2,000 and 20,000 objects (a long-used 200 MB store holds tens of thousands), within
 * budget, the usual case: every object is looked at. Timed: the prune's wall time and the longest
 * its event loop was held (a 1 ms timer's worst lateness), beside the same look done blocking
 * (readdirSync and statSync, as before: all of it one task). Medians (min–max) of 5 rounds. Prints only.
 */
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OBJECTS_DIR, SESSIONS_DIR } from "../shared/checkpoints/schema";
import { pruneStore } from "../shared/node/checkpoint-prune";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

/** Runs `work` with a 1 ms timer beside it: its wall time and the timer's worst lateness. */
async function held(work: () => Promise<unknown> | unknown): Promise<{ wall: number; held: number }> {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 1);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  last = performance.now();
  const started = performance.now();
  await work();
  const wall = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(timer);
  return { wall, held: worst };
}

function blockingLook(dir: string): number {
  let bytes = 0;
  for (const sub of [SESSIONS_DIR, OBJECTS_DIR]) for (const name of fs.readdirSync(join(dir, sub))) bytes += fs.statSync(join(dir, sub, name)).size;
  return bytes;
}

async function main(): Promise<void> {
  for (const count of [2_000, 20_000]) {
    const store = fs.mkdtempSync(join(tmpdir(), "checkpoint-prune-"));
    try {
      fs.mkdirSync(join(store, SESSIONS_DIR));
      fs.mkdirSync(join(store, OBJECTS_DIR));
      for (let i = 0; i < count; i++) fs.writeFileSync(join(store, OBJECTS_DIR, i.toString(16).padStart(64, "0")), `version ${i}\n`);
      fs.writeFileSync(join(store, SESSIONS_DIR, "s.jsonl"), "");
      const rounds = { asyncWall: [] as number[], asyncHeld: [] as number[], blocking: [] as number[] };
      for (let round = 0; round < 6; round++) {
        const a = await held(() => pruneStore(store, { maxBytes: 1024 ** 3 }));
        const b = await held(() => blockingLook(store));
        if (round === 0) continue; // warm-up
        rounds.asyncWall.push(a.wall);
        rounds.asyncHeld.push(a.held);
        rounds.blocking.push(b.held);
      }
      console.log(`${count.toLocaleString("en-US")} objects: the prune ${fmt(rounds.asyncWall)} in all, the event loop held at most ${fmt(rounds.asyncHeld)}; the same look blocking held it ${fmt(rounds.blocking)}`);
    } finally {
      fs.rmSync(store, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

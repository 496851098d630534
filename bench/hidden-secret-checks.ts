/**
 * `npx tsx bench/hidden-secret-checks.ts`: what keeping the home's secrets hidden from the file
 * tools costs per file (agent-host/tools/hidden-paths.ts: each read, each file grep re-reads for
 * context lines, each write is judged by hiddenSecretOf). A home with some secrets (~/.ssh a link
 * into dotfiles, ~/.aws, ~/.docker/config.json, ~/.netrc) and a workspace of 1,000 and 10,000
 * files; each file judged once, with one look at where the secrets are per file (as before
 * secret-places.ts kept a look for 100 ms) and as now. Medians (min–max) of 5 rounds. Prints only.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hiddenSecretOf } from "../shared/node/sandbox/protected-match";
import { secretPlaces } from "../shared/node/sandbox/secret-places";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

const home = mkdtempSync(join(tmpdir(), "hidden-checks-"));
try {
  mkdirSync(join(home, "dotfiles/ssh"), { recursive: true });
  symlinkSync("dotfiles/ssh", join(home, ".ssh"));
  for (const dir of [".aws", ".docker"]) mkdirSync(join(home, dir));
  writeFileSync(join(home, ".aws/credentials"), "x");
  writeFileSync(join(home, ".docker/config.json"), "{}");
  writeFileSync(join(home, ".netrc"), "x");
  const workspace = join(home, "project");
  const files: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    const dir = join(workspace, `src/m${i % 100}`);
    if (i < 100) mkdirSync(dir, { recursive: true });
    files.push(join(dir, `file${i}.ts`));
    writeFileSync(files[i]!, "");
  }
  for (const n of [1_000, 10_000]) {
    const fresh: number[] = [];
    const kept: number[] = [];
    for (let round = 0; round < 5; round++) {
      let start = performance.now();
      for (const file of files.slice(0, n)) {
        secretPlaces(home, 0);
        hiddenSecretOf(file, { HOME: home });
      }
      fresh.push(performance.now() - start);
      start = performance.now();
      for (const file of files.slice(0, n)) hiddenSecretOf(file, { HOME: home });
      kept.push(performance.now() - start);
    }
    console.log(`${n.toLocaleString("en")} files judged: a look per file ${fmt(fresh)}, a look kept 100 ms ${fmt(kept)}`);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}

/**
 * `npx tsx bench/listed-folders.ts`: what the `@` listing's check costs (workspace-paths.ts
 * filesReallyIn: each found file's folder must really lie in the workspace and not in a hidden
 * secret). A workspace of 2,000 and 20,000 files (the listing's limit) in 200 and 2,000 folders,
 * four levels deep, one folder a link out of it; the home with ~/.ssh and ~/.aws. Medians (min–max)
 * of 7 rounds, the first one apart (compiling). Prints only.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { filesReallyIn, realFolders } from "../extension/host-tools/workspace-paths";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

const base = mkdtempSync(join(tmpdir(), "listed-folders-"));
try {
  const home = join(base, "home");
  for (const dir of [".ssh", ".aws"]) mkdirSync(join(home, dir), { recursive: true });
  writeFileSync(join(home, ".aws/credentials"), "x");
  const workspace = join(home, "project");
  const files: string[] = [];
  for (let a = 0; a < 20; a++)
    for (let b = 0; b < 10; b++)
      for (let c = 0; c < 10; c++) {
        const dir = join(workspace, `a${a}`, `b${b}`, `c${c}`);
        mkdirSync(dir, { recursive: true });
        for (let f = 0; f < 10; f++) files.push(join(dir, `f${f}.ts`));
      }
  symlinkSync(join(home, ".ssh"), join(workspace, "a0", "keys"));
  files.push(join(workspace, "a0", "keys", "id_ed25519"));
  const roots = realFolders([workspace]);
  for (const count of [2_000, 20_000]) {
    const some = [...files.slice(0, count), files.at(-1)!];
    const times: number[] = [];
    let kept = 0;
    for (let round = 0; round < 8; round++) {
      const started = performance.now();
      kept = filesReallyIn(some, roots, { home }).length;
      if (round > 0) times.push(performance.now() - started);
    }
    const folders = new Set(some.map((file) => dirname(file))).size;
    console.log(`${count} files in ${folders} folders: ${fmt(times)}; kept ${kept} of ${some.length}`);
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}

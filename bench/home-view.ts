/**
 * `npx tsx bench/home-view.ts [runs]`: what rebuilding home's folders around its secrets
 * (shared/node/sandbox/home-view.ts) costs a sandboxed `true`, beside the same sandbox with the
 * mounts alone (the view before session 22), on a made-up home of a developer's usual size and on
 * one four times that: rebuilt by each command's bwrap (session 22), and rebuilt once by a home
 * keeper whose namespaces each command's bwrap starts in (home-keeper.ts, session 23). Each: bwrap's
 * whole start and end, spawned and waited for, the arguments built each time (the folders listed);
 * medians (min–max) of alternating runs after a warm-up. Prints only.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildBwrapArgs, type PathKind } from "../shared/node/sandbox/bwrap-args";
import { HomeKeeper } from "../shared/node/sandbox/home-keeper";
import { listFolder } from "../shared/node/sandbox/list-folder";
import { homeSecrets } from "../shared/node/sandbox/protected-paths";

const runs = Number(process.argv[2] ?? 20);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

/** A home: `scale` times 60 entries at its top, 80 in ~/.config, 40 in ~/.local/share, a few in the folders holding secret files. */
function makeHome(scale: number): string {
  const home = realpathSync(mkdtempSync("/var/tmp/pi-home-view-"));
  const fill = (dir: string, n: number) => {
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < n; i++) (i % 2 ? writeFileSync(join(dir, `f${i}`), "x") : mkdirSync(join(dir, `d${i}`)));
  };
  fill(home, 60 * scale);
  fill(join(home, ".config"), 80 * scale);
  fill(join(home, ".local/share"), 40 * scale);
  for (const dir of [".docker", ".pi/agent", ".cargo", ".codex", ".claude"]) fill(join(home, dir), 6 * scale);
  mkdirSync(join(home, "proj"));
  for (const secret of [".ssh", ".aws", ".netrc", ".docker/config.json", ".git-credentials"]) {
    if (secret.includes(".") && !secret.endsWith("ssh") && !secret.endsWith("aws")) writeFileSync(join(home, secret), "secret");
    else mkdirSync(join(home, secret), { recursive: true });
  }
  return home;
}

function kind(path: string): PathKind {
  try {
    return statSync(path).isDirectory() ? "dir" : "file";
  } catch {
    return "missing";
  }
}

const keeper = new HomeKeeper("bwrap", "/usr/bin/nsenter");

async function once(home: string, temp: string, rebuild: boolean, kept = false): Promise<number> {
  const build = (keptHomeView?: string) => buildBwrapArgs(
    {
      policy: { mode: "workspace-write", network: false, workspaceRoot: join(home, "proj"), writableRoots: [] },
      cwd: join(home, "proj"),
      home,
      sessionTemp: temp,
      secrets: homeSecrets.map((name) => ({ name, path: join(home, name) })),
      pathKind: kind,
      realPath: (p) => {
        try {
          return realpathSync(p);
        } catch {
          return p;
        }
      },
      ...(rebuild ? { listFolder } : {}),
      ...(keptHomeView ? { keptHomeView } : {}),
    },
    ["true"],
  );
  // With a keeper: what the bash tool's prepare does (the listing checked, the keeper ready), then the command.
  const start = performance.now();
  if (kept) await keeper.keep(build().homeView);
  const held = kept ? keeper.held() : undefined;
  const plan = build(held?.key);
  if (kept && !plan.inKeeper) throw new Error("the keeper did not hold the folders");
  const [file, ...args] = [...(held?.prefix ?? []), "bwrap", ...plan.args];
  return new Promise((done, fail) => {
    const child = spawn(file!, args, { stdio: "ignore" });
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done(performance.now() - start) : fail(new Error(`bwrap exited ${code}: ${args.join(" ")}`))));
  });
}

async function main(): Promise<void> {
  const temp = mkdtempSync("/tmp/pi-home-view-tmp-");
  for (const scale of [1, 4]) {
    const home = makeHome(scale);
    try {
      const mounts: number[] = [];
      const rebuilt: number[] = [];
      const kept: number[] = [];
      await once(home, temp, false);
      await once(home, temp, true);
      await once(home, temp, true, true);
      for (let i = 0; i < runs; i++) {
        mounts.push(await once(home, temp, false));
        rebuilt.push(await once(home, temp, true));
        kept.push(await once(home, temp, true, true));
      }
      console.log(`home of ${60 * scale} + ${80 * scale} (.config) + ${40 * scale} (.local/share) entries: mounts alone ${fmt(mounts)}, rebuilt by each command ${fmt(rebuilt)}, rebuilt once by a keeper ${fmt(kept)}`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  keeper.dispose();
  rmSync(temp, { recursive: true, force: true });
}

void main();

/**
 * Where a CPU profile's time went: `npx tsx bench/editor/profile-summary.ts <file.cpuprofile> [top]`.
 * Self time by function and by script (our bundles by name, VS Code's and Node's by folder), and
 * the total time spent under each of our functions that the top self times run in. With the
 * late turns hostProfiled wrote beside it (`<name>.late-turns.json`), the longest turn and the
 * most of ours in one.
 */
import * as fs from "node:fs";

import { oursInProfile, oursInTurns, type CpuProfile, type LateTurns } from "./host-profile";

interface Profile extends CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  endTime: number;
}

/** A script's short name: our dist bundles by file, the rest by where they come from. */
function scriptOf(url: string): string {
  if (!url) return "(native or idle)";
  // Built-in extensions have dist/ bundles too (extensions/git/dist/main.js): named before ours.
  if (url.includes("/extensions/")) return `extension: ${/\/extensions\/([^/]+)/.exec(url)![1]}`;
  const ours = /\/dist\/([^/]+\.js)$/.exec(url);
  if (ours) return `ours: ${ours[1]}`;
  if (url.startsWith("node:")) return "node internals";
  if (url.includes("/vscode/out/")) return "vscode";
  return url.replace(/^file:\/\//, "").split("/").slice(-2).join("/");
}

function summarize(profile: Profile, top: number, late: LateTurns | undefined): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const total = (profile.endTime - profile.startTime) / 1000;
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  const byFunction = new Map<string, number>();
  const byScript = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)!.callFrame;
    add(byScript, scriptOf(frame.url), ms);
    add(byFunction, `${frame.functionName || "(anonymous)"} ${scriptOf(frame.url)}:${frame.lineNumber + 1}`, ms);
  }
  // Total (self and below) of each of our functions: what our code causes, VS Code's work included.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const underOurs = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!scriptOf(frame.url).startsWith("ours:")) continue;
      const key = `${frame.functionName || "(anonymous)"} ${scriptOf(frame.url)}:${frame.lineNumber + 1}`;
      if (!seen.has(key)) add(underOurs, key, ms);
      seen.add(key);
    }
  }
  const rows = (map: Map<string, number>, n: number) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, ms]) => `  ${ms.toFixed(1).padStart(9)} ms  ${key}`);
  const isOurs = (url: string) => scriptOf(url).startsWith("ours:");
  const ours = oursInProfile(profile, isOurs);
  const turns = late && oursInTurns(profile, late, isOurs, ours);
  return [
    `profile of ${total.toFixed(0)} ms`,
    `busy ${ours.busyMs.toFixed(0)} ms; with a function of ours on the stack ${ours.oursMs.toFixed(0)} ms, its longest stretch ${ours.longestOursMs.toFixed(1)} ms, the longest busy stretch holding ours ${ours.longestBusyWithOursMs.toFixed(1)} ms`,
    ...(turns ? [`turns over 5 ms late: ${late.length}; the longest ${turns.longestTurnMs!.toFixed(1)} ms; the most of ours in one ${turns.mostOursInOneTurnMs!.toFixed(1)} ms (${turns.mostOursInOneTurnRunningMs!.toFixed(1)} ms running)`] : []),
    "self time by script:",
    ...rows(byScript, 15),
    `self time by function (top ${top}):`,
    ...rows(byFunction, top),
    `time under each of our functions (self and callees, top ${top}):`,
    ...rows(underOurs, top),
  ];
}

const [file, top] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
const lateFile = file.replace(/\.cpuprofile$/, ".late-turns.json");
const late = fs.existsSync(lateFile) ? (JSON.parse(fs.readFileSync(lateFile, "utf8")) as LateTurns) : undefined;
console.log(summarize(JSON.parse(fs.readFileSync(file, "utf8")) as Profile, Number(top ?? 30), late).join("\n"));

/**
 * `npx tsx bench/partial-json.ts`: our incremental partial-JSON parser (shared/rpc/partial-json.ts)
 * beside the `partial-json` package Pi uses (pi 0.87.1's copy, test/peers/pi-0.87.1), for issue
 * 34's question "the library or ours". Tool-call arguments (a `write` of N KB) streamed in
 * 20-character deltas, the value read after each delta, as a streaming client shows it; and one
 * parse of a whole unterminated text. Medians of 5 runs.
 */
import * as path from "node:path";
import { PartialJsonParser } from "../shared/rpc/partial-json";
import { assertPeerInstalled, peerDir } from "../test/support/peers";
import { num, summarize } from "./lib/stats";

assertPeerInstalled("pi");
const library = require(path.join(peerDir("pi"), "node_modules/partial-json")) as { parse(text: string): unknown };

const text = (kb: number) => JSON.stringify({ path: "src/big.ts", content: "  const line = \"the quick brown fox\";\n".repeat(Math.ceil((kb * 1000) / 39)).slice(0, kb * 1000) });
const median = (f: () => void, runs = 5): number => summarize(Array.from({ length: runs }, () => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}))!.median;

function perDelta(kb: number, parse: (prefix: string) => unknown): number {
  const t = text(kb);
  return median(() => {
    for (let i = 20; i < t.length + 20; i += 20) parse(t.slice(0, i));
  }, kb > 40 ? 1 : 5);
}

function incremental(kb: number): number {
  const t = text(kb);
  return median(() => {
    const parser = new PartialJsonParser();
    for (let i = 0; i < t.length; i += 20) parser.push(t.slice(i, i + 20)).value();
  });
}

const rows = ["| arguments | partial-json, value per delta (as Pi) | ours, incremental, value per delta | partial-json, one parse of it unterminated | ours, one parse |", "| --- | --- | --- | --- | --- |"];
for (const kb of [10, 40, 100, 1000]) {
  const unterminated = text(kb).slice(0, -2);
  const lib = kb <= 100 ? `${num(perDelta(kb, (p) => library.parse(p)))} ms` : "not run (quadratic)";
  rows.push(`| ${kb} KB | ${lib} | ${num(incremental(kb))} ms | ${num(median(() => library.parse(unterminated)))} ms | ${num(median(() => new PartialJsonParser().push(unterminated).value()))} ms |`);
  console.log(rows.at(-1));
}
console.log(["", ...rows].join("\n"));

#!/usr/bin/env node
// `npm run package` (after `npm run build:prod`): writes dist-vsix/<name>-<version>.vsix with
// vsce; fails on any vsce warning, so the Marketplace never sees one first.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
const { name, version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const out = join(root, "dist-vsix", `${name}-${version}.vsix`);
const vsce = join(dirname(createRequire(import.meta.url).resolve("@vscode/vsce/package.json")), "vsce");

mkdirSync(dirname(out), { recursive: true });
rmSync(out, { force: true });
const run = spawnSync(process.execPath, [vsce, "package", "--no-dependencies", "--out", out], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
process.stdout.write(run.stdout);
process.stderr.write(run.stderr);
if (run.status !== 0) process.exit(run.status ?? 1);
if (/WARNING/.test(run.stdout + run.stderr)) {
  console.error(`vsce warned (see above): fix package.json or .vscodeignore`);
  process.exit(1);
}
console.log(`VSIX: ${relative(process.cwd(), out)}`);

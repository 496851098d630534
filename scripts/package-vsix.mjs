#!/usr/bin/env node
// `npm run package`: a clean production build into dist/, then dist-vsix/<name>-<version>.vsix
// with vsce; fails on any vsce warning, so the Marketplace never sees one first.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
const { name, version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const out = join(root, "dist-vsix", `${name}-${version}.vsix`);
const vsce = join(dirname(createRequire(import.meta.url).resolve("@vscode/vsce/package.json")), "vsce");

/** Runs node with `args` in the repository; exits with its status when it fails. */
function node(args, options = {}) {
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "inherit", "inherit"], ...options });
  if (run.status !== 0) {
    process.stdout.write(run.stdout ?? "");
    process.stderr.write(run.stderr ?? "");
    process.exit(run.status ?? 1);
  }
  return run;
}

// dist/ from scratch: the VSIX journey checks that every file of the build is in the package.
rmSync(join(root, "dist"), { recursive: true, force: true });
node([join(root, "esbuild.mjs"), "--production"]);
mkdirSync(dirname(out), { recursive: true });
rmSync(out, { force: true });
const packed = node([vsce, "package", "--no-dependencies", "--out", out], { stdio: ["ignore", "pipe", "pipe"] });
process.stdout.write(packed.stdout);
process.stderr.write(packed.stderr);
if (/WARNING/.test(packed.stdout + packed.stderr)) {
  console.error("vsce warned (see above): fix package.json or .vscodeignore");
  process.exit(1);
}
console.log(`VSIX: ${relative(process.cwd(), out)}`);

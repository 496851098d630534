#!/usr/bin/env node
// Bundles the in-host suites (test/vscode/suite/index.ts + **/*.test.ts) into
// dist-test/vscode/suite/, and the VSIX journey (the same index + test/vscode/vsix/*.test.ts)
// into dist-test/vscode/vsix/: CommonJS for the extension host, `vscode` external, mocha bundled.
import * as esbuild from "esbuild";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const suiteDir = path.join(here, "suite");
const outdir = path.resolve(here, "..", "..", "dist-test", "vscode", "suite");

/** @param {string} dir @returns {string[]} */
function testFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode"],
  sourcemap: "inline",
  logLevel: "warning",
  // mocha's parallel mode (unused in the extension host) resolves worker files at run time.
  logOverride: { "require-resolve-not-external": "silent" },
  // jsonc-parser's "main" is a UMD build whose require("./impl/…") esbuild cannot follow: its ESM
  // build, as the extension's own bundle takes it (esbuild.mjs: mainFields module first).
  alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
};
const vsixDir = path.join(here, "vsix");
const vsixOutdir = path.join(outdir, "..", "vsix");
fs.rmSync(outdir, { recursive: true, force: true });
fs.rmSync(vsixOutdir, { recursive: true, force: true });
const results = await Promise.all([
  esbuild.build({ ...common, entryPoints: [path.join(suiteDir, "index.ts"), ...testFiles(suiteDir)], outbase: suiteDir, outdir }),
  esbuild.build({
    ...common,
    entryPoints: { index: path.join(suiteDir, "index.ts"), ...Object.fromEntries(testFiles(vsixDir).map((f) => [path.basename(f, ".ts"), f])) },
    outdir: vsixOutdir,
  }),
]);
if (results.some((result) => result.errors.length > 0)) process.exit(1);

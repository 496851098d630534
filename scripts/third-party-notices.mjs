// dist/THIRD-PARTY-NOTICES.txt: the name, version, license and license text of every npm package
// the build bundled (from esbuild's metafiles) or copied into dist/ (esbuild-wasm), so that the
// VSIX carries the license of each. esbuild's `*.LEGAL.txt` keep only `/*! ... */` comments,
// which most packages do not have.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve, join } from "node:path";

/** @param {import("esbuild").Metafile[]} metafiles @param {string[]} copiedPackageDirs @param {string} outFile */
export function writeThirdPartyNotices(metafiles, copiedPackageDirs, outFile) {
  const dirs = new Set(copiedPackageDirs.map((d) => resolve(d)));
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (match) dirs.add(resolve(match[1]));
    }
  }
  const entries = [...dirs].map(describePackage).sort((a, b) => a.name.localeCompare(b.name));
  const text = entries.map((p) => `${p.name} ${p.version} (${p.license})\n\n${p.text.trim()}\n`).join(`\n${"-".repeat(78)}\n\n`);
  writeFileSync(outFile, `Third-party software bundled in Pi Agent for VS Code (${entries.length} packages)\n\n${"=".repeat(78)}\n\n${text}`);
  return entries.length;
}

/** @param {string} dir */
function describePackage(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const license = typeof pkg.license === "string" ? pkg.license : (pkg.license?.type ?? "see package");
  const file = existsSync(dir) ? readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f)) : undefined;
  const text = file ? readFileSync(join(dir, file), "utf8") : `The package carries no license file; its package.json says: ${license}.`;
  return { name: pkg.name, version: pkg.version, license, text };
}

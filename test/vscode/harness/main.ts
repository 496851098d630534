// `npm run test:vscode`: builds the in-host suites and runs them in real VS Code, once per
// requested code-server version (or through @vscode/test-electron with PI_VSCODE_TEST_ELECTRON=1).
// Then, once per version, the VSIX journey: `npm run package`, the VSIX installed into
// code-server, test/vscode/vsix/ run on it.
// Options: --extension <dir>  --versions 4.100.3,4.139.1 (default: test/vscode/code-server-versions)  --grep <pattern>  --timeout <s>  --keep-state
//   --vsix (only the VSIX journey)  --no-vsix (without it; the default with --grep)
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { runElectron } from "./electron";
import { compiledSuite, defaultVersions, repoRoot, vscodeTestDir } from "./paths";
import { runVersion, type VersionOutcome } from "./run-version";

export interface HarnessArgs {
  extensionPath: string;
  versions: string[];
  grep?: string;
  timeoutMs: number;
  keepState: boolean;
  /** Which runs: the suites on the development path, the VSIX journey, or both. */
  runs: { development: boolean; vsix: boolean };
}

export function parseArgs(argv: string[]): HarnessArgs {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const versions = (value("--versions") ?? process.env.PI_VSCODE_VERSIONS ?? defaultVersions())
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  const grep = value("--grep") ?? process.env.PI_VSCODE_TEST_GREP;
  return {
    extensionPath: path.resolve(value("--extension") ?? defaultExtension()),
    versions,
    ...(grep ? { grep } : {}),
    // The whole suite took ~600 s on a loaded 2-core machine: twice that before giving up.
    timeoutMs: Number(value("--timeout") ?? process.env.PI_VSCODE_TIMEOUT ?? 1200) * 1000,
    keepState: argv.includes("--keep-state"),
    runs: {
      development: !argv.includes("--vsix"),
      vsix: argv.includes("--vsix") || (!argv.includes("--no-vsix") && grep === undefined),
    },
  };
}

/** The repo root; its dist/ must be built (npm run build). */
export function defaultExtension(): string {
  if (!fs.existsSync(path.join(repoRoot, "dist", "extension.js"))) throw new Error("dist/extension.js is missing: run npm run build first");
  return repoRoot;
}

/** `npm run package` (a clean production build into dist/, then vsce): the VSIX's path. */
export function packageVsix(): string {
  const res = spawnSync(process.execPath, [path.join(repoRoot, "scripts", "package-vsix.mjs")], { stdio: ["ignore", "inherit", "inherit"] });
  if (res.status !== 0) throw new Error("npm run package failed");
  const { name, version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { name: string; version: string };
  return path.join(repoRoot, "dist-vsix", `${name}-${version}.vsix`);
}

export function buildSuite(): void {
  const res = spawnSync(process.execPath, [path.join(vscodeTestDir, "build-suite.mjs")], { stdio: "inherit" });
  if (res.status !== 0) throw new Error("building the in-host suites failed");
}

const interrupts = new Set<() => Promise<void>>();
let interrupted = false;
let interruptDone: Promise<unknown> | undefined;
function onInterrupt(cleanup: () => Promise<void>): () => void {
  interrupts.add(cleanup);
  return () => interrupts.delete(cleanup);
}
function handleSignal(signal: NodeJS.Signals): void {
  if (interrupted) process.exit(130);
  interrupted = true;
  process.stdout.write(`\n[vscode-harness] ${signal}: stopping code-server and chromium\n`);
  interruptDone = Promise.allSettled([...interrupts].map((cleanup) => cleanup()));
}

export async function main(argv: string[]): Promise<number> {
  process.on("SIGINT", handleSignal);
  process.on("SIGTERM", handleSignal);
  const args = parseArgs(argv);
  const started = Date.now();
  buildSuite();
  if (process.env.PI_VSCODE_TEST_ELECTRON === "1") {
    return runElectron({ extensionPath: args.extensionPath, suitePath: compiledSuite, grep: args.grep });
  }
  // chromium (and what code-server's install needs): quick when already installed.
  const apt = spawnSync("bash", [path.join(repoRoot, "scripts", "install-apt.sh")], { stdio: "inherit" });
  if (apt.status !== 0) throw new Error("scripts/install-apt.sh failed");
  const outcomes: VersionOutcome[] = [];
  if (args.runs.development) {
    for (const version of args.versions) {
      if (interrupted) break;
      outcomes.push(await runVersion({ ...args, version, onInterrupt, interrupted: () => interrupted }));
    }
  }
  // After the development runs: packaging rebuilds dist/ for production.
  if (args.runs.vsix && !interrupted) {
    let vsix: string;
    try {
      vsix = packageVsix();
    } catch (err) {
      outcomes.push({ version: args.versions.join(","), vscodeVersion: "-", vsix: "(not built)", error: (err as Error).message, timings: {} });
      vsix = "";
    }
    for (const version of vsix ? args.versions : []) {
      if (interrupted) break;
      outcomes.push(await runVersion({ ...args, version, vsix, onInterrupt, interrupted: () => interrupted }));
    }
  }
  if (interruptDone) {
    await interruptDone;
    return 130;
  }
  let passed = 0;
  let failed = 0;
  process.stdout.write("\n[vscode-harness] summary\n");
  for (const o of outcomes) {
    const r = o.result;
    passed += r?.passes ?? 0;
    failed += r ? r.failures : 1;
    const t = o.timings;
    const secs = (ms: number | undefined) => (ms === undefined ? "-" : `${(ms / 1000).toFixed(1)} s`);
    process.stdout.write(
      `  code-server ${o.version} (VS Code ${o.vscodeVersion})${o.vsix ? ", VSIX journey" : ""}: ` +
        (r ? `${r.passes} passing, ${r.failures} failing, ${r.pending} pending` : "no result") +
        (o.error ? ` - ${o.error}` : "") +
        ` [install ${secs(t.installMs)}, start ${secs(t.codeServerStartMs)}, tests ${secs(t.testsMs)}, total ${secs(t.totalMs)}]\n`,
    );
  }
  process.stdout.write(`  whole run ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`vscode: ${passed} passed, ${failed} failed\n`);
  return outcomes.length > 0 && outcomes.every((o) => !o.error) ? 0 : 1;
}

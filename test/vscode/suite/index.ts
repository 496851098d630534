// In-host test entry (extensionTestsPath): VS Code calls run() inside the extension host.
// Runs mocha over the compiled *.test.js beside this file, echoes the spec reporter's output
// to the harness's log file and writes a TestResult JSON the harness waits for.
import * as fs from "node:fs";
import * as path from "node:path";
import { format } from "node:util";
import Mocha from "mocha";
import { harnessEnv, type TestResult } from "../bridge-protocol";

function findTests(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return findTests(full);
      return entry.name.endsWith(".test.js") ? [full] : [];
    })
    .sort();
}

export async function run(): Promise<void> {
  process.setSourceMapsEnabled(true); // stack traces point at the .ts sources (inline maps)
  const logFile = process.env[harnessEnv.logFile];
  const write = (text: string): void => {
    if (logFile) fs.appendFileSync(logFile, text);
    else process.stdout.write(text);
  };
  // The spec reporter prints through Base.consoleLog: route it to the harness.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => write(format(...args) + "\n");

  const grep = process.env[harnessEnv.grep];
  const mocha = new Mocha({
    ui: "bdd",
    reporter: "spec",
    timeout: 30_000,
    color: process.env[harnessEnv.colors] === "1",
    // Under CI (the extension host inherits code-server's environment) a stray `.only` fails.
    forbidOnly: Boolean(process.env.CI),
    ...(grep ? { grep } : {}),
  });
  for (const file of findTests(__dirname)) mocha.addFile(file);

  const started = Date.now();
  const failed: TestResult["failed"] = [];
  const stats = await new Promise<Mocha.Stats | undefined>((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats));
    runner.on("fail", (test, err: Error) => failed.push({ title: test.fullTitle(), error: err.stack ?? String(err) }));
  });
  const result: TestResult = {
    passes: stats?.passes ?? 0,
    failures: stats?.failures ?? failed.length,
    pending: stats?.pending ?? 0,
    durationMs: Date.now() - started,
    failed,
  };
  const resultFile = process.env[harnessEnv.resultFile];
  if (resultFile) fs.writeFileSync(resultFile, JSON.stringify(result, null, 2));
  if (result.failures > 0) throw new Error(`${result.failures} test(s) failed`);
}

// Prints a test's figures in the harness's output, beside the spec reporter (the extension
// host's console.log goes to the browser console instead).
import * as fs from "node:fs";
import { harnessEnv } from "../bridge-protocol";

export function printFigures(text: string): void {
  const line = `      figures: ${text}\n`;
  const logFile = process.env[harnessEnv.logFile];
  if (logFile) fs.appendFileSync(logFile, line);
  else process.stdout.write(line);
}

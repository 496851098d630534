// A planted V8 code cache: V8 checks a cache only against the length of the source it is given,
// so a cache made from other code of the same length would run that code instead. The code here
// writes "ran" to $PLANT_MARKER, so a test sees whether a loader took the planted cache.
import * as nodeModule from "node:module";
import * as vm from "node:vm";

/** Code of exactly `length` characters that writes "ran" to $PLANT_MARKER when it runs. */
export function evilSource(length: number): string {
  const body = "require('fs').writeFileSync(process.env.PLANT_MARKER || '/dev/null', 'ran');";
  return body + " ".repeat(length - body.length);
}

/** A V8 code cache made from the evil code for `filename` (run once, so the module function's bytecode is in it). */
export function evilCache(length: number, filename: string): Buffer {
  const script = new vm.Script(nodeModule.wrap(evilSource(length)), { filename });
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const saved = process.env.PLANT_MARKER;
  process.env.PLANT_MARKER = "/dev/null";
  run.call({}, {}, require, { exports: {} }, filename, __dirname);
  if (saved === undefined) delete process.env.PLANT_MARKER;
  else process.env.PLANT_MARKER = saved;
  return script.createCachedData();
}

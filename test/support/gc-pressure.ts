/**
 * The garbage collector run every few milliseconds while a test waits, without starting Node with
 * --expose-gc: what a busy process does by chance (a CI run once lost a time limit to it), done on purpose.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Starts the pressure; the function returned stops it. */
export function collectEvery(ms: number): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const timer = setInterval(gc, ms);
  return () => clearInterval(timer);
}

/**
 * dist/agent-host.js: the command line's entry. It turns on Node's on-disk compile cache (Node
 * 22.1+, in the OS temp folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off) and then loads the
 * host's bundle, so from the second start on V8 reuses the compiled code instead of compiling
 * the whole bundle again; on older Node it just loads the bundle.
 */
import * as path from "node:path";

const nodeModule = require("node:module") as { enableCompileCache?: () => unknown };
try {
  nodeModule.enableCompileCache?.();
} catch {
  // an unwritable temp folder only costs speed
}
const load = require as (id: string) => unknown;
load(path.join(__dirname, "agent-host-main.js"));

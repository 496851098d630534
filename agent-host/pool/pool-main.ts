/**
 * dist/agent-host-pool.js, run by `agent-host.js --pool` (start.ts): the pool's own thread. It
 * loads none of the host (only the pool's wire and its workers); each session's worker runs
 * dist/agent-host-main.js, the host as `--mode rpc` runs it in a process of its own.
 */
import * as path from "node:path";
import { loadPoolValidators } from "../rpc/precompiled";
import { runPool } from "./pool-mode";

const log = (message: string) => process.stderr.write(`${message}\n`);
loadPoolValidators();
const pool = runPool(process.stdin, process.stdout, path.join(__dirname, "agent-host.js"), log);
// A signal ends each session as it ends a host process of its own (its exit handlers: shells
// killed, placeholders removed), then the pool; a second signal does not wait.
const onSignal = (code: number) => () => {
  process.once("SIGTERM", () => process.exit(code));
  void pool.stop(code).finally(() => process.exit(code));
};
process.once("SIGTERM", onSignal(143));
process.once("SIGHUP", onSignal(129));
pool.done.then(
  () => process.stdout.write("", () => process.exit(0)),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);

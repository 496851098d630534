/**
 * dist/agent-host-pool.js, run by `agent-host.js --pool` (start.ts): the pool's own thread. It
 * loads none of the host (only the pool's wire and its workers); each session's worker runs
 * dist/agent-host-main.js, the host as `--mode rpc` runs it in a process of its own.
 */
import * as path from "node:path";
import { loadPoolValidators } from "../rpc/precompiled";
import { runPool } from "./pool-mode";

// The pool's signals end it at once; its sessions' shells go with it (their watchdogs' pipes close, tools/process-groups.ts).
process.once("SIGTERM", () => process.exit(143));
process.once("SIGHUP", () => process.exit(129));

const log = (message: string) => process.stderr.write(`${message}\n`);
loadPoolValidators();
runPool(process.stdin, process.stdout, path.join(__dirname, "agent-host-main.js"), log).then(
  () => process.stdout.write("", () => process.exit(0)),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);

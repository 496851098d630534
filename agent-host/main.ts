import { runCli } from "./rpc/cli";

// Exit handlers (which kill the shells tools started) also run when the editor stops the host.
process.once("SIGTERM", () => process.exit(143));
process.once("SIGHUP", () => process.exit(129));

runCli(process.argv.slice(2)).then(
  (code) => {
    // Once the input has ended, nothing may keep the host (a shell, a timer, an extension's handle).
    if (code !== undefined) process.stdout.write("", () => process.exit(code));
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);

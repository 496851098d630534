import { runRpcMode } from "./rpc-mode";

const VERSION = process.env.PI_VSCODE_VERSION ?? "0.0.0-dev";

export interface CliOptions {
  mode: "rpc" | "text";
  provider?: string;
  model?: string;
  noSession: boolean;
}

const HELP = `Usage: agent-host --mode rpc [options]

The Pi Agent for VS Code agent host. Speaks Pi's JSONL RPC protocol on stdin/stdout.

Options:
  --mode rpc            run as an RPC server (the only mode)
  --provider <name>     provider name
  --model <pattern>     model id or provider/id
  --no-session          do not persist the session
  --version             print the version
  --help                print this help
Other pi options are accepted.`;

/** Options that take a value, so their value is not mistaken for a flag or a message. */
const valued = new Set([
  "--mode", "--provider", "--model", "--models", "--api-key", "--thinking", "--system-prompt",
  "--append-system-prompt", "--session", "--session-id", "--fork", "--session-dir", "--name", "-n",
  "--tools", "-t", "--exclude-tools", "-xt", "--extension", "-e", "--skill", "--prompt-template",
  "--use-theme", "--tui-mode",
]);

export function parseCli(argv: readonly string[]): CliOptions | { exit: number; text: string } {
  const options: CliOptions = { mode: "text", noSession: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--version" || arg === "-v") return { exit: 0, text: VERSION };
    if (arg === "--help" || arg === "-h") return { exit: 0, text: HELP };
    if (arg === "--no-session") options.noSession = true;
    if (!valued.has(arg)) continue;
    const value = argv[++i];
    if (value === undefined) return { exit: 2, text: `Missing value for ${arg}` };
    if (arg === "--mode") {
      if (value !== "rpc") return { exit: 2, text: `Unsupported mode: ${value} (only rpc)` };
      options.mode = "rpc";
    } else if (arg === "--provider") options.provider = value;
    else if (arg === "--model") options.model = value;
  }
  return options;
}

export async function runCli(argv: readonly string[]): Promise<number | undefined> {
  const parsed = parseCli(argv);
  if ("exit" in parsed) {
    (parsed.exit === 0 ? process.stdout : process.stderr).write(`${parsed.text}\n`);
    return parsed.exit;
  }
  if (parsed.mode !== "rpc") {
    process.stderr.write("Only --mode rpc is supported. See --help.\n");
    return 2;
  }
  await runRpcMode(parsed, process.stdin, process.stdout);
  return 0;
}

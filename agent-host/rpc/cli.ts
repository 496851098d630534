import { createHostRuntime } from "./host-runtime";
import { parseCli } from "./cli-options";
import { openConnection, serveRpc } from "./rpc-mode";
import { loadPrecompiledValidators } from "./precompiled";
import { hostToolCallsFirst } from "./host-tool-order";
import { EDITOR_MCP_SERVERS_ENV } from "../../shared/protocol/mcp";
import { takeSecretEnv } from "./secret-env";
import { runAcpMode } from "./acp-launch";
import { errorText } from "../../shared/error-text";

const VERSION = process.env.PI_VSCODE_VERSION ?? "0.0.0-dev";

const HELP = `Usage: agent-host --mode rpc|acp [options]

The Pi Agent for VS Code agent host: a drop-in for \`pi --mode rpc\`, speaking Pi's JSONL RPC
protocol on stdin/stdout. It reads a Pi user's setup (\$PI_CODING_AGENT_DIR, default ~/.pi/agent).

Options (as pi's):
  --mode rpc                     run as an RPC server (Pi's JSONL RPC)
  --mode acp                     run as an Agent Client Protocol agent on stdio (docs/acp.md)
  --provider <name>              provider name
  --model <pattern>              model id, provider/id, optional :<thinking>
  --models <patterns>            models cycle_model goes through
  --api-key <key>                API key for --provider
  --thinking <level>             off, minimal, low, medium, high, xhigh, max
  --system-prompt <text|file>    replace the default system prompt
  --append-system-prompt <text|file>  append to it (repeatable)
  --session <path|id>            open a session file
  --session-id <id>              open or create the session with this id
  --continue, -c                 continue the most recent session
  --fork <path|id>               fork a session into a new one
  --session-dir <dir>            where sessions are kept
  --no-session                   do not save the session
  --name, -n <name>              session display name
  --tools, -t <list>             built-in tools to enable (read,bash,edit,write,grep,find,ls)
  --exclude-tools, -xt <list>    tools to disable
  --no-tools, -nt / --no-builtin-tools, -nbt
  --no-mcp                       no MCP servers (mcp.json) for this run
  --skill <path> / --no-skills, -ns
  --prompt-template <path> / --no-prompt-templates, -np
  --no-context-files, -nc        do not load AGENTS.md / CLAUDE.md
  --approve, -a / --no-approve, -na   trust project-local files (.pi/) for this run, or not
                                 (default: the decision saved in <agentDir>/trust.json, else defaultProjectTrust)
  --confirm-tools <list>         ask the client (a select dialog) before these tools run, e.g. bash,edit,write
  --confirm-timeout <seconds>    an unanswered question denies after this long
  --checkpoint-dir <dir>         record files before write/edit change them, in this checkpoint store
  --workspace-only               read/write/edit/ls/find/grep refuse paths outside the working directory (bash is not confined)
  --sandbox <mode>               read-only | workspace-write | full-access: every process a tool starts runs in an OS sandbox (bubblewrap; macOS sandbox-exec)
  --sandbox-network              the sandbox lets those processes reach the network
  --sandbox-allow-host <pattern> (repeatable) without --sandbox-network: those processes reach this host through a
                                 filtering proxy (example.com, *.example.com, either with :port; others are asked)
  --todo-tool                    add the todo tool (the plan, seed 001) to the chosen tools
  --permission-mode <mode>       ask (default), acceptEdits, plan (read-only tools only) or auto (nothing asked)
  --event-snapshots              add the cumulative message to message_update (older Pi clients)
  --version, -v / --help, -h
Accepted and ignored: --offline (this host makes no network requests but the model's), --verbose
and the other options of pi's terminal UI.`;

export async function runCli(argv: readonly string[]): Promise<number | undefined> {
  const parsed = parseCli(argv, HELP, VERSION);
  if (parsed.kind === "exit") {
    (parsed.code === 0 ? process.stdout : process.stderr).write(`${parsed.text}\n`);
    return parsed.code;
  }
  const warn = (message: string) => process.stderr.write(`${message}\n`);
  parsed.warnings.forEach(warn);
  loadPrecompiledValidators();
  if (parsed.options.mode === "acp") return runAcpMode(parsed.options, VERSION, warn);
  if (parsed.options.mode !== "rpc") {
    warn("Only --mode rpc and --mode acp are supported by this host. See --help.");
    return 2;
  }
  // Read stdin from the start: commands that arrive while the runtime loads wait in order.
  const connection = openConnection(process.stdin, process.stdout, hostToolCallsFirst);
  // An extension's ctx.shutdown(): as at the end of input, extensions hear session_shutdown, then the host exits.
  const shutdown = () => void Promise.resolve(runtime.extensions?.shutdown()).finally(() => process.stdout.write("", () => process.exit(0)));
  // The host's one change to process.env, on purpose: nothing it spawns may inherit the editor's keys (secret-env.ts).
  const secretEnv = takeSecretEnv(process.env);
  // VS Code's MCP servers the editor offered travel with the secrets (out of every tool's environment), not to the providers.
  const editorMcpServers = secretEnv[EDITOR_MCP_SERVERS_ENV];
  delete secretEnv[EDITOR_MCP_SERVERS_ENV];
  const runtime = createHostRuntime(parsed.options, { cwd: process.cwd(), env: process.env, secretEnv, send: connection.send, warn, shutdown, ...(editorMcpServers ? { editorMcpServers } : {}) });
  // Extensions load before the first command is served; one that fails to load stops the host, as in pi.
  const failure = await runtime.ready?.then(() => undefined, (error: unknown) => error);
  if (failure !== undefined) {
    process.stderr.write(`Error: ${errorText(failure)}\nHint: Start without extensions using "--no-extensions".\n`, () => process.exit(1));
    return undefined;
  }
  await serveRpc(runtime, connection);
  return 0;
}

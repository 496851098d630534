/**
 * Where our arguments go on a configured agent's command line (no vscode, so the reliability
 * tests compose the same lines). The user's own arguments come first: `pi.agent.command` may be
 * an interpreter (`node`, `bun`) whose first argument is the agent's script, and an interpreter
 * takes an option before its script as its own ("node: bad option: --mode").
 */

/** The user asked for a mode of their own (`--mode X` or `--mode=X`): ours is not added. */
export function hasModeOption(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === "--mode" || arg.startsWith("--mode="));
}

/**
 * The command line's arguments: the user's, then `--mode rpc` (unless the user gave a mode), then
 * ours (extensions, the session file). A `--` in the user's arguments ends the options: ours go
 * before it, so that they are not read as a message.
 */
export function configuredAgentArgs(userArgs: readonly string[], ours: readonly string[]): string[] {
  const mode = hasModeOption(userArgs) ? [] : ["--mode", "rpc"];
  const end = userArgs.indexOf("--");
  const options = end === -1 ? userArgs : userArgs.slice(0, end);
  const rest = end === -1 ? [] : userArgs.slice(end);
  return [...options, ...mode, ...ours, ...rest];
}

/**
 * Which agent the settings run, for telling a restart of the same agent from a change of agent:
 * the protocol, the command and its script (an interpreter's first argument). A session is
 * reopened only by the agent that keeps it: another agent has its own session folder (omp's is not
 * pi's), may not write the file in its sandbox, and a transcript of another agent would be stale.
 */
export function agentIdentity(command: string, protocol: string, args: readonly string[]): string {
  if (!command) return "bundled";
  const script = args.find((arg) => !arg.startsWith("-"));
  return JSON.stringify([protocol, command, script ?? ""]);
}

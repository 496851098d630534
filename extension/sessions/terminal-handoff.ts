import * as path from "node:path";

export interface TerminalLaunch {
  name: string;
  shellPath: string;
  shellArgs: string[];
  cwd: string;
}

export interface TerminalLaunchInput {
  /** `pi.terminal.command`, else the configured agent command, else "pi". */
  terminalCommand: string;
  agentCommand: string;
  sessionFile: string;
  cwd: string;
  label: string;
}

/**
 * The terminal that opens a session in Pi's terminal UI: the program runs directly (no shell, so
 * no quoting rules of bash or PowerShell apply) with `--session FILE`; both sides share the file.
 */
export function terminalLaunch(input: TerminalLaunchInput): TerminalLaunch {
  const shellPath = input.terminalCommand || input.agentCommand || "pi";
  return { name: `Pi: ${input.label}`, shellPath, shellArgs: ["--session", path.resolve(input.sessionFile)], cwd: input.cwd };
}

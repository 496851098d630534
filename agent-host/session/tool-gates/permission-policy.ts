import { resolve } from "node:path";
import { fitsOneLine } from "../../../shared/visible-text";
import type { BeforeToolCallResult } from "../../agent/types";
import type { ToolCall } from "../../ai/types";
import type { PermissionMode } from "../../../shared/protocol";
import { runsWithoutAsking } from "./permission-mode";

/** How the policy asks: a select dialog; undefined when it was dismissed or timed out. */
export type AskChoice = (title: string, options: string[], signal: AbortSignal) => Promise<string | undefined>;

export const ALLOW_ONCE = "Allow once";
export const DENY = "Deny";

/** What an "… for this session" answer allows from then on: never more than the user saw named. */
export type Allowance =
  | { kind: "command"; command: string }
  | { kind: "prefix"; prefix: string }
  | { kind: "path"; tool: string; path: string }
  | { kind: "tool"; tool: string };

/** A question: its whole text, the answers offered, and what each session-wide answer allows. */
export interface PermissionQuestion {
  title: string;
  options: string[];
  allowances: Map<string, Allowance>;
}

/** Longest command or path put after "Allow bash: " on one line; longer ones get a line of their own. */
const oneLineMax = 60;
/** Longest prefix offered as "commands starting with …" (longer ones read as a whole command). */
const prefixMax = 40;

/**
 * Asks before risky tools run (the editor turns this on; off on the command line, as in Pi):
 * the question holds the whole command or path, never cut. Allow once, an allowance for this
 * session scoped to what the question names (this exact command, commands starting with a
 * prefix shown in the answer, this file, or every call of a tool when the answer says so), or
 * Deny. A dismissed or timed-out question denies.
 */
export function createPermissionGate(tools: ReadonlySet<string>, ask: AskChoice, cwd: string = process.cwd(), mode: () => PermissionMode = () => "ask") {
  const allowed: Allowance[] = [];
  return async (call: ToolCall, signal: AbortSignal): Promise<BeforeToolCallResult> => {
    if (!tools.has(call.name) || runsWithoutAsking(mode(), call.name) || allowed.some((a) => covers(a, call, cwd))) return undefined;
    const question = permissionQuestion(call, cwd);
    const choice = await ask(question.title, question.options, signal);
    if (choice === ALLOW_ONCE) return undefined;
    const allowance = choice === undefined ? undefined : question.allowances.get(choice);
    if (allowance) {
      allowed.push(allowance);
      return undefined;
    }
    if (choice === DENY) return { block: true, reason: `The user denied this ${call.name} call.` };
    if (signal.aborted) return { block: true, reason: `The run was aborted while this ${call.name} call waited for permission.` };
    return { block: true, reason: `No permission for this ${call.name} call (the question was not answered).` };
  };
}

/** The question for a call, with the whole command/path/arguments in its title. */
export function permissionQuestion(call: ToolCall, cwd: string): PermissionQuestion {
  const args = call.arguments;
  const allowances = new Map<string, Allowance>();
  const command = call.name === "bash" && typeof args.command === "string" ? args.command : undefined;
  const path = typeof args.path === "string" ? args.path : undefined;
  const shown = command ?? path ?? JSON.stringify(args);
  const long = command !== undefined ? "to run this command?" : path !== undefined ? "on this file?" : "with these arguments?";
  const title = fitsOneLine(shown, oneLineMax) ? `Allow ${call.name}: ${shown}` : `Allow ${call.name} ${long}\n${shown}`;
  if (command !== undefined) {
    allowances.set("Allow this exact command for this session", { kind: "command", command });
    const prefix = commandPrefix(command);
    if (prefix !== undefined && prefix !== command) allowances.set(`Allow commands starting with “${prefix}” for this session`, { kind: "prefix", prefix });
  } else if (path !== undefined) {
    allowances.set(`Allow ${call.name} of this file for this session`, { kind: "path", tool: call.name, path: resolve(cwd, path) });
    allowances.set(`Allow ${call.name} of any file for this session`, { kind: "tool", tool: call.name });
  } else {
    allowances.set(`Allow every ${call.name} call for this session`, { kind: "tool", tool: call.name });
  }
  return { title, options: [ALLOW_ONCE, ...allowances.keys(), DENY], allowances };
}

export function covers(allowance: Allowance, call: ToolCall, cwd: string): boolean {
  const args = call.arguments;
  switch (allowance.kind) {
    case "command":
      return call.name === "bash" && args.command === allowance.command;
    case "prefix":
      return call.name === "bash" && typeof args.command === "string" && coveredByPrefix(args.command, allowance.prefix);
    case "path":
      return call.name === allowance.tool && typeof args.path === "string" && resolve(cwd, args.path) === allowance.path;
    case "tool":
      return call.name === allowance.tool;
  }
}

/**
 * Shell syntax that runs, chains, redirects or substitutes more than one plain command: `; & | < >`,
 * `$(…)`, backticks, `${…}`, newlines and any other control character. A command with any of it
 * is never covered by a prefix allowance (and gets no prefix offered).
 */
const shellControl = /[;&|<>`\u0000-\u001f\u007f]|\$[({]/;

export function hasShellControl(command: string): boolean {
  return shellControl.test(command);
}

/** Programs whose first argument is a subcommand or script: the prefix offered is "program that", never the program alone. */
const subcommandPrograms = new Set(["npm", "pnpm", "yarn", "bun", "npx", "git", "cargo", "go", "make", "docker", "kubectl", "pip", "python", "python3", "node", "deno", "dotnet", "mvn", "gradle", "./gradlew"]);
/** Programs that run whatever their arguments say (shells, wrappers): no prefix is offered for them. */
const runsItsArguments = new Set(["sh", "bash", "zsh", "dash", "fish", "eval", "exec", "sudo", "su", "doas", "env", "xargs", "nohup", "timeout", "nice", "command", "builtin", "source", ".", "time", "watch", "ssh", "perl", "ruby", "php", "awk", "sed"]);

/**
 * The prefix a "commands starting with …" allowance would name: the program (and its subcommand
 * for tools like npm and git) of a plain command; undefined when the command has shell control
 * syntax or the prefix would be too long to read at a glance.
 */
export function commandPrefix(command: string): string | undefined {
  if (hasShellControl(command)) return undefined;
  const words = command.trim().split(/ +/);
  const program = words[0];
  if (!program || /[=\\'"]/.test(program) || runsItsArguments.has(program)) return undefined;
  let prefix = program;
  if (subcommandPrograms.has(program)) {
    const sub = words[1];
    if (!sub || !/^[\w:./-]+$/.test(sub) || sub.startsWith("-")) return undefined;
    prefix = `${program} ${sub}`;
  }
  return prefix.length <= prefixMax ? prefix : undefined;
}

/** A command is covered by a prefix when it is the prefix, or the prefix then a space then plain arguments. */
export function coveredByPrefix(command: string, prefix: string): boolean {
  if (hasShellControl(command)) return false;
  return command === prefix || command.startsWith(`${prefix} `);
}

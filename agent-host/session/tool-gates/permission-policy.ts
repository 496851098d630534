import { fitsOneLine } from "../../../shared/visible-text";
import type { BeforeToolCallResult } from "../../agent/types";
import type { ToolCall } from "../../ai/types";
import { userDenial, type PermissionMode } from "../../../shared/protocol";
import { changePreview } from "./change-preview";
import { harmlessPrograms } from "./harmless-programs";
import { runsWithoutAsking } from "./permission-mode";
import { protectedTarget, type ConfiningSandbox, type ProtectedTarget } from "./protected-paths";
import type { ProtectedWriteApprovals } from "./protected-write-check";
import { literalWords } from "./shell-words";

/** How the policy asks: a select dialog; undefined when it was dismissed or timed out. */
/** `call` is the tool call the question is about (an ACP client shows the question on that call). */
export type AskChoice = (title: string, options: string[], signal: AbortSignal, call?: ToolCall) => Promise<string | undefined>;

import { ALLOW_ONCE, DENY } from "./permission-answers";

export { ALLOW_ONCE, DENY };
export const ALLOW_EXACT = "Allow this exact command for this session";
export const allowProgramAnswer = (program: string): string => `Allow \`${program}\` with any arguments for this session`;

/** What an "… for this session" answer allows from then on: never more than the user saw named. */
export type Allowance =
  | { kind: "command"; command: string }
  | { kind: "program"; program: string }
  | { kind: "tool"; tool: string };

/**
 * `edit` and `write` both change a file: an allowance for one covers the other (a user who
 * allowed edits for the session is not asked again when the model writes the file whole).
 */
const FILE_CHANGES = "edit/write";
const allowanceTool = (name: string): string => (name === "edit" || name === "write" ? FILE_CHANGES : name);

/** A question: its whole text, the answers offered, and what each session-wide answer allows. */
export interface PermissionQuestion {
  title: string;
  options: string[];
  allowances: Map<string, Allowance>;
}

/** Longest command or path put after "Allow bash: " on one line; longer ones get a line of their own. */
const oneLineMax = 60;

export interface PermissionGateOptions {
  cwd?: string;
  mode?: () => PermissionMode;
  /**
   * Which session the host is in: a number that changes whenever the host goes to another
   * session (new, switched to, forked, cloned). Allowances are dropped when it changes, so an
   * allowance never outlives the session it was given in, nor comes back with a resumed one.
   */
  session?: () => number;
  /** A sandbox confines commands' writes: protected files (read-only: every file) are asked in `auto` too. */
  sandbox?: ConfiningSandbox;
  /** Where an Allow once of a protected write is recorded, for the check at the write itself (protected-write-check.ts). */
  approvals?: ProtectedWriteApprovals;
  /** What an MCP server says of its tool (annotations); undefined for other tools. */
  toolHints?: (tool: string) => ToolHints | undefined;
}

/**
 * An MCP tool's annotations (readOnlyHint, destructiveHint), as its server declares them. A
 * read-only tool runs without a question, as `read` does; one the server marks destructive is
 * asked in every mode, auto included, with no "for this session" answer; any other MCP tool is
 * asked like bash (ask and acceptEdits).
 */
export interface ToolHints {
  readOnly: boolean;
  destructive: boolean;
}

/**
 * Asks before risky tools run (the editor turns this on; off on the command line, as in Pi):
 * the question holds the whole command or path, never cut. Three answers: Allow once, one
 * allowance for this session whose answer spells out its scope (a harmless program with any
 * arguments, for one simple command of literal words, else this exact command; changes to any
 * file; every call of another tool), or Deny. A write or edit of a protected file (protected-paths.ts) is asked in
 * every mode but auto (and in auto too under a sandbox), with the change shown, whatever was
 * allowed: Allow once or Deny. A
 * dismissed or timed-out question denies.
 */
export function createPermissionGate(tools: ReadonlySet<string>, ask: AskChoice, options: PermissionGateOptions = {}) {
  const { cwd = process.cwd(), mode = () => "ask" as PermissionMode, session = () => 0 } = options;
  let allowed: Allowance[] = [];
  let allowedIn = session();
  const sessionAllowances = (): Allowance[] => {
    if (session() !== allowedIn) [allowed, allowedIn] = [[], session()];
    return allowed;
  };
  // One question at a time, and what is allowed is looked at when a call's turn comes: the calls
  // of one turn (edit, write, edit) wait while the first is asked, and an answer allowing changes
  // to any file for the session covers them then, instead of three questions already open.
  // A call that runs unasked never waits for another's question.
  let turn: Promise<unknown> = Promise.resolve();
  return async (call: ToolCall, signal: AbortSignal): Promise<BeforeToolCallResult> => {
    if ((await questionFor(call)) === undefined) return undefined;
    const result = turn.then(async () => {
      if (signal.aborted) return { block: true, reason: `The run was aborted while this ${call.name} call waited for permission.` };
      const asked = await questionFor(call); // what was allowed meanwhile
      return asked === undefined ? undefined : answer(call, asked.question, asked.protectedFile, signal);
    });
    turn = result.catch(() => undefined);
    return result;
  };

  /** The question a call needs now, or undefined when it runs unasked. */
  async function questionFor(call: ToolCall): Promise<{ question: PermissionQuestion; protectedFile?: ProtectedTarget } | undefined> {
    const hints = options.toolHints?.(call.name);
    if (hints?.destructive) return { question: destructiveQuestion(call) };
    const auto = mode() === "auto";
    if (auto && !options.sandbox) return undefined;
    const protectedFile = protectedTarget(call.name, call.arguments, cwd, options.sandbox);
    if (protectedFile !== undefined) return { question: protectedPathQuestion(call, protectedFile), protectedFile };
    if (auto) return undefined;
    if (hints?.readOnly) return undefined;
    if ((!tools.has(call.name) && !hints) || runsWithoutAsking(mode(), call.name) || (await coveredByAny(sessionAllowances(), call))) return undefined;
    return { question: await permissionQuestion(call) };
  }

  async function answer(call: ToolCall, question: PermissionQuestion, protectedFile: ProtectedTarget | undefined, signal: AbortSignal): Promise<BeforeToolCallResult> {
    const choice = await ask(question.title, question.options, signal, call);
    if (choice === ALLOW_ONCE) {
      if (protectedFile !== undefined) options.approvals?.grant(protectedFile.realPath, call.id);
      return undefined;
    }
    const allowance = choice === undefined ? undefined : question.allowances.get(choice);
    if (allowance) {
      sessionAllowances().push(allowance);
      return undefined;
    }
    if (choice === DENY) return { block: true, reason: userDenial(call.name) };
    if (signal.aborted) return { block: true, reason: `The run was aborted while this ${call.name} call waited for permission.` };
    return { block: true, reason: `No permission for this ${call.name} call (the question was not answered).` };
  }
}

/** An MCP tool its server marks destructive: the whole arguments, once or not at all. */
function destructiveQuestion(call: ToolCall): PermissionQuestion {
  return { title: `Allow ${call.name}? Its MCP server marks it destructive. With these arguments:\n${JSON.stringify(call.arguments)}`, options: [ALLOW_ONCE, DENY], allowances: new Map() };
}

async function coveredByAny(allowances: readonly Allowance[], call: ToolCall): Promise<boolean> {
  for (const allowance of allowances) if (await covers(allowance, call)) return true;
  return false;
}

const titled = (head: string, shown: string, long: string): string => (fitsOneLine(shown, oneLineMax) ? `${head}: ${shown}` : `${head} ${long}\n${shown}`);

/** The question for a call, with the whole command/path/arguments in its title. */
export async function permissionQuestion(call: ToolCall): Promise<PermissionQuestion> {
  const args = call.arguments;
  const allowances = new Map<string, Allowance>();
  const command = call.name === "bash" && typeof args.command === "string" ? args.command : undefined;
  const path = typeof args.path === "string" ? args.path : undefined;
  const shown = command ?? path ?? JSON.stringify(args);
  const long = command !== undefined ? "to run this command?" : path !== undefined ? "on this file?" : "with these arguments?";
  const title = titled(`Allow ${call.name}`, shown, long);
  if (command !== undefined) {
    const program = await harmlessProgramOf(command);
    if (program !== undefined) allowances.set(allowProgramAnswer(program), { kind: "program", program });
    else allowances.set(ALLOW_EXACT, { kind: "command", command });
  } else if (path !== undefined) {
    const tool = allowanceTool(call.name);
    const what = tool === FILE_CHANGES ? "changes to" : `${call.name} of`;
    allowances.set(`Allow ${what} any file for this session`, { kind: "tool", tool });
  } else {
    allowances.set(`Allow every ${call.name} call for this session`, { kind: "tool", tool: call.name });
  }
  return { title, options: [ALLOW_ONCE, ...allowances.keys(), DENY], allowances };
}

/** A write or edit of a protected file: the path, why it is asked, the whole change; once or not at all. */
export function protectedPathQuestion(call: ToolCall, target: ProtectedTarget): PermissionQuestion {
  const shown = typeof call.arguments.path === "string" ? call.arguments.path : target.absPath;
  const leadsTo = target.realPath === target.absPath ? "" : `\nThrough a symlink, this writes ${target.realPath}`;
  const why =
    target.why === "protected"
      ? `Allow ${call.name} of a protected file: ${shown}${leadsTo}\nTools or the editor may run what this file says (git config and hooks, .vscode tasks, .pi extensions, package scripts, CI).`
      : `Allow ${call.name} in a read-only sandbox: ${shown}${leadsTo}\nThe sandbox lets commands write nothing (pi.sandbox.mode read-only); this tool writes from outside it.`;
  const title = `${why} The change:\n${changePreview(call.name, call.arguments, target.absPath, shown)}`;
  return { title, options: [ALLOW_ONCE, DENY], allowances: new Map() };
}

/** The program of `command` when it is one simple command of literal words and that program is harmless with any arguments. */
export async function harmlessProgramOf(command: string): Promise<string | undefined> {
  const program = (await literalWords(command))?.[0];
  return program !== undefined && harmlessPrograms.has(program) ? program : undefined;
}

export async function covers(allowance: Allowance, call: ToolCall): Promise<boolean> {
  const args = call.arguments;
  switch (allowance.kind) {
    case "command":
      return call.name === "bash" && args.command === allowance.command;
    case "program":
      return call.name === "bash" && typeof args.command === "string" && (await harmlessProgramOf(args.command)) === allowance.program;
    case "tool":
      return allowanceTool(call.name) === allowance.tool;
  }
}

/**
 * ACP sign-in (`authenticate`): the agent's `authMethods` (initialize) as what the editor can do
 * for each, and the quick pick's rows that offer them. Plain: no SDK, no VS Code.
 *
 * - a method of `type: "terminal"` (the spec's) or with `_meta["terminal-auth"]` (claude-code-acp's,
 *   opencode's: `{command, args, label}`) is a command the user runs in a VS Code terminal, shown
 *   whole before it runs; the spec says not to send `authenticate` for it;
 * - a method with `_meta["api-key"]` (gemini-cli's `gemini-api-key`, `{provider}`) takes a key in
 *   `authenticate`'s `_meta["api-key"]`, as the agent documents: the key from SecretStorage (Pi:
 *   Set API Key) goes over the agent's ACP channel, never in an argument list, a file or an
 *   environment;
 * - a method with `_meta.gateway` of a protocol we route (gemini-cli's `gateway`, protocol
 *   "google") is pointed at the editor's model gateway: the agent gets the gateway's URL and its
 *   per-process token in `authenticate`'s `_meta`, never the key (the gateway puts the key stored
 *   in SecretStorage on each request, as for pi);
 * - any other method is the agent's own (`authenticate` with its id: it signs in by itself).
 *
 * Names and descriptions are foreign text: one line, control characters escaped, no icon syntax,
 * descriptions whole (long ones as rows of their own).
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { builtInProviders } from "../gateway/gateway-plan";
import { visible } from "./acp-permission";

/** JSON-RPC error code of "authentication required" (ACP's `auth_required`). */
export const AUTH_REQUIRED = -32000;

export function isAuthRequired(error: unknown): boolean {
  return Boolean(error && typeof error === "object" && (error as { code?: unknown }).code === AUTH_REQUIRED);
}

export type SignInMethod =
  | { kind: "agent"; id: string; name: string; description: string }
  | { kind: "api-key"; id: string; name: string; description: string; provider: string; variable: string | undefined }
  | { kind: "gateway"; id: string; name: string; description: string; provider: string; variable: string }
  | { kind: "terminal"; id: string; name: string; description: string; command: string; args: string[]; env: Record<string, string> };

/** A terminal sign-in as it runs: the method, and the user's own `pi.agent.env` it runs with. */
export type TerminalSignIn = Extract<SignInMethod, { kind: "terminal" }> & { userEnv: Record<string, string> };

/**
 * The variables a terminal sign-in runs with (over the editor's environment): the user's
 * `pi.agent.env`, as the agent itself was started, then the method's own. Never a key of
 * SecretStorage or the gateway's token: the agent is started without them too.
 */
export function terminalEnvironment(method: TerminalSignIn): Record<string, string> {
  return { ...method.userEnv, ...method.env };
}

/** How the agent was started: a spec terminal method runs it again with its own arguments added. */
export interface AgentInvocation {
  command: string;
  args: readonly string[];
}

/**
 * Variables as an environment holds them: string values under names of letters, digits and `_`
 * (a name with `=` or a newline would show as one variable and set another).
 */
export const environmentVariables = (value: unknown): Record<string, string> =>
  value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(e[0]))) : {};
const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** What the editor can do for each method the agent offers (a terminal method only when it can run one). */
export function signInMethods(methods: readonly acp.AuthMethod[], invocation: AgentInvocation | undefined): SignInMethod[] {
  const offered = methods.slice(0, MAX_METHODS).flatMap((method): SignInMethod[] => {
    const base = { id: String(method.id), name: String(method.name ?? method.id), description: typeof method.description === "string" ? method.description : "" };
    const meta = method._meta && typeof method._meta === "object" ? (method._meta as Record<string, unknown>) : {};
    if ("type" in method && method.type === "terminal") {
      if (!invocation) return [];
      return [{ ...base, kind: "terminal", command: invocation.command, args: [...invocation.args, ...stringList(method.args)], env: environmentVariables(method.env) }];
    }
    const terminalAuth = meta["terminal-auth"] as { command?: unknown; args?: unknown; env?: unknown } | undefined;
    if (terminalAuth && typeof terminalAuth === "object" && typeof terminalAuth.command === "string" && terminalAuth.command) {
      return [{ ...base, kind: "terminal", command: terminalAuth.command, args: stringList(terminalAuth.args), env: environmentVariables(terminalAuth.env) }];
    }
    const gateway = meta.gateway as { protocol?: unknown } | undefined;
    const routed = gateway && typeof gateway === "object" ? builtInProviders.find((p) => p.provider === gateway.protocol) : undefined;
    if (routed) return [{ ...base, kind: "gateway", provider: routed.provider, variable: routed.variable }];
    const apiKey = meta["api-key"] as { provider?: unknown } | undefined;
    if (apiKey && typeof apiKey === "object" && typeof apiKey.provider === "string") {
      const provider = apiKey.provider;
      return [{ ...base, kind: "api-key", provider, variable: builtInProviders.find((p) => p.provider === provider)?.variable }];
    }
    return [{ ...base, kind: "agent" }];
  });
  // Keys stay out of agents: where the editor's gateway can serve a provider, the method that hands
  // the agent the key itself is not offered for it.
  const routed = new Set(offered.flatMap((m) => (m.kind === "gateway" ? [m.provider] : [])));
  return offered.filter((m) => (m.kind !== "api-key" || !routed.has(m.provider)) && (m.kind !== "terminal" || fitsToRead(m)));
}

/** Blank characters (spaces of every width, braille blank, Hangul fillers) that push what follows out of sight. */
const blankRun = /[\s\u2800\u3164\uffa0]{4,}/gu;

/**
 * A command line as the user reads it: each word quoted where the shell would split or expand it,
 * a run of 4 or more blank characters counted (`⟨3000 blank characters⟩`), not drawn: 3,000 spaces
 * before `; curl … | sh` would push it out of the modal's sight.
 */
export function commandLine(command: string, args: readonly string[]): string {
  return shownWords([command, ...args]);
}

/** The variables a terminal sign-in sets, as the user reads them (`NAME=value`, quoted and counted as `commandLine`). */
export function variablesLine(env: Readonly<Record<string, string>>): string {
  return shownWords(Object.entries(env).map(([name, value]) => `${name}=${value}`));
}

function shownWords(words: readonly string[]): string {
  const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
  return blankRunsCounted(words.map(quote).join(" "));
}

/** A run of 4 or more blank characters counted (`⟨3000 blank characters⟩`), not drawn. */
function blankRunsCounted(text: string): string {
  return text.replace(blankRun, (run) => `⟨${[...run].length} blank characters⟩`);
}

/** A sign-in command longer than this, variables included, is not offered: no sign-in needs it, and no one reads it. */
const MAX_TERMINAL_TEXT = 4096;
const fitsToRead = (method: Extract<SignInMethod, { kind: "terminal" }>): boolean =>
  [method.command, ...method.args, ...Object.entries(method.env).flat()].reduce((sum, word) => sum + word.length + 1, 0) <= MAX_TERMINAL_TEXT;

/** A row of the sign-in quick pick; rows with a `methodId` choose it, the others are its text. */
export interface SignInRow {
  label: string;
  description?: string;
  methodId?: string;
}

/** One line, every character visible, no `$(icon)`: what a quick pick shows as it is. */
export function pickText(text: string): string {
  return noIcons(oneLine(text));
}

const oneLine = (text: string): string => visible(text).replace(/\r?\n/g, "\\n");
const noIcons = (text: string): string => text.replace(/\$\(/g, "\\$(");

/** A quick pick cuts a row near this many characters: longer text goes on rows of its own. */
const ROW_WIDTH = 72;
/** Past this, an agent's text is cut with a note (a hostile agent's megabytes would be a pick of 100,000 rows). */
const MAX_TEXT = 32 * 1024;
/** The most methods offered. */
export const MAX_METHODS = 50;

/** Foreign text whole, as rows (icon syntax escaped per row: a cut could make one of `\$(`). */
function rowsOf(text: string): SignInRow[] {
  const whole = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)} … (${text.length - MAX_TEXT} more characters not shown)` : text;
  const line = oneLine(whole);
  const rows: SignInRow[] = [];
  for (let i = 0; i < line.length; i += ROW_WIDTH) rows.push({ label: `\u00a0\u00a0${noIcons(line.slice(i, i + ROW_WIDTH))}` });
  return rows;
}

/** What choosing the method does, said plainly. */
export function whatItDoes(method: SignInMethod, agentName: string): string {
  switch (method.kind) {
    case "terminal":
      return `Runs in a terminal: ${commandLine(method.command, method.args)}${Object.keys(method.env).length ? ` (with ${Object.keys(method.env).join(", ")} set)` : ""}`;
    case "api-key":
      return method.variable
        ? `Sends your stored ${method.variable} (Pi: Set API Key) to ${agentName} over its ACP channel; it holds the key in memory (never in its arguments, environment or a file)`
        : `Needs a key for "${method.provider}", which Pi does not store`;
    case "gateway":
      return `Your stored ${method.variable} (Pi: Set API Key) through Pi's model gateway: ${agentName} gets the gateway's address and a token for this run, never the key`;
    case "agent":
      return `${agentName} signs in by itself`;
  }
}

const kindText: Record<SignInMethod["kind"], string> = { terminal: "a command in a terminal", "api-key": "a key you stored, given to the agent", gateway: "a key you stored, kept by the editor", agent: "the agent signs in itself" };

/**
 * The quick pick's rows: each method a row (its name; its kind), then, whole, on rows of their
 * own, what choosing it does (a terminal's whole command line) and the agent's description.
 * Every piece of the agent's text goes through `pickText` once.
 */
export function signInRows(methods: readonly SignInMethod[], agentName: string): SignInRow[] {
  return methods.flatMap((method) => [
    { label: pickText(method.name.length > 200 ? `${method.name.slice(0, 200)}…` : method.name), description: kindText[method.kind], methodId: method.id },
    ...rowsOf(whatItDoes(method, agentName)),
    ...(method.description ? rowsOf(method.description) : []),
  ]);
}

/** The pick's title (one line, cut); the agent's reason whole comes as the first rows (`signInReasonRows`). */
export function signInTitle(agentName: string): string {
  return pickText(`${agentName.slice(0, 60)} asks you to sign in: choose how`);
}

export function signInReasonRows(reason: string): SignInRow[] {
  return rowsOf(reason);
}

/** A row of a terminal sign-in's confirmation: an `action` row answers it, the others are its text. */
export interface ConfirmRow {
  label: string;
  description?: string;
  action?: "run" | "cancel";
}

/**
 * A terminal sign-in's confirmation, whole, before it runs: Run and Cancel, then the command line,
 * the variables the agent sets (values whole: it chose them), the names of the user's own, the
 * folder, and that it runs as the user outside the agent's sandbox. The agent's text goes through
 * `pickText` once per row.
 */
export function terminalConfirmRows(method: TerminalSignIn, cwd: string): ConfirmRow[] {
  const agentVariables = Object.entries(method.env);
  // The user's own values are not shown (a proxy's password, a key they put there): their names are.
  const userNames = Object.keys(method.userEnv);
  return [
    { label: "Run in a terminal", action: "run" },
    { label: "Cancel", action: "cancel" },
    { label: "Command:" },
    ...rowsOf(commandLine(method.command, method.args)),
    ...(agentVariables.length ? [{ label: "Set by the agent:" }, ...agentVariables.flatMap(([k, v]) => rowsOf(`${blankRunsCounted(`${k}=${v}`)}${k in method.userEnv ? " (instead of your pi.agent.env's)" : ""}`))] : []),
    ...(userNames.length ? [{ label: "Your pi.agent.env (as the agent was started; values not shown):" }, ...rowsOf(userNames.join(", "))] : []),
    { label: "In:" },
    ...rowsOf(cwd),
    ...rowsOf("It runs in the editor's environment, outside the agent's sandbox, with your permissions: the agent chose its arguments and variables."),
  ];
}

import type { BeforeToolCallResult } from "../agent/types";
import type { ToolCall } from "../ai/types";

/** How the policy asks: a select dialog; undefined when it was dismissed or timed out. */
export type AskChoice = (title: string, options: string[], signal: AbortSignal) => Promise<string | undefined>;

export const ALLOW_ONCE = "Allow once";
export const ALLOW_SESSION = "Allow for this session";
export const DENY = "Deny";

/**
 * Asks before risky tools run (the editor turns this on; off on the command line, as in Pi):
 * Allow once, Allow for this session (that tool, until the host exits), or Deny. A dismissed or
 * timed-out question denies.
 */
export function createPermissionGate(tools: ReadonlySet<string>, ask: AskChoice) {
  const allowed = new Set<string>();
  return async (call: ToolCall, signal: AbortSignal): Promise<BeforeToolCallResult> => {
    if (!tools.has(call.name) || allowed.has(call.name)) return undefined;
    const choice = await ask(`Allow ${call.name}? ${describe(call)}`, [ALLOW_ONCE, ALLOW_SESSION, DENY], signal);
    if (choice === ALLOW_ONCE) return undefined;
    if (choice === ALLOW_SESSION) {
      allowed.add(call.name);
      return undefined;
    }
    return { block: true, reason: choice === DENY ? `The user denied this ${call.name} call.` : `No permission for this ${call.name} call (the question was not answered).` };
  };
}

function describe(call: ToolCall): string {
  const args = call.arguments;
  const text = typeof args.command === "string" ? args.command : typeof args.path === "string" ? args.path : JSON.stringify(args);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

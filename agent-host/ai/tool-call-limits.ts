/**
 * Bounds on a tool call's arguments as the model streams them: nesting depth and length. A
 * hostile or broken model can send arguments nested 100,000 levels deep (which every recursive
 * JSON.stringify after it, the session file's included, cannot write) or tens of megabytes. Such a
 * call is refused while it streams: its arguments become {} and the model gets a clear tool error.
 */
import type { ToolCall } from "./types";

/** Far deeper than any tool schema needs, far below what JSON.stringify's recursion survives. */
export const MAX_TOOL_ARGUMENT_DEPTH = 100;
/** Characters of JSON text; a model's whole output is far smaller. */
export const MAX_TOOL_ARGUMENT_CHARS = 16 * 1024 * 1024;

const OPEN_BRACE = 123, OPEN_BRACKET = 91, CLOSE_BRACE = 125, CLOSE_BRACKET = 93, QUOTE = 34, BACKSLASH = 92;

/** Follows streamed JSON text chunk by chunk (no re-reading): its nesting depth and length. */
export class ArgumentBounds {
  private depth = 0;
  private length = 0;
  private inString = false;
  private escaped = false;

  /** Takes the next chunk; returns why the arguments are refused once a bound is crossed. */
  push(chunk: string): string | undefined {
    this.length += chunk.length;
    if (this.length > MAX_TOOL_ARGUMENT_CHARS) {
      return `Tool call refused: its arguments are larger than ${MAX_TOOL_ARGUMENT_CHARS / 1024 / 1024} MB. Split the work into smaller calls.`;
    }
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) this.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++this.depth > MAX_TOOL_ARGUMENT_DEPTH) return `Tool call refused: its arguments nest deeper than ${MAX_TOOL_ARGUMENT_DEPTH} levels.`;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) this.depth--;
    }
    return undefined;
  }
}

// A registered symbol, not module state: providers are separate bundles (dist/providers/) with
// their own copy of this module. Non-enumerable, so it is never serialized or copied.
const REFUSAL = Symbol.for("pi-agent-host.toolCallRefusal");

/** Marks a streamed tool call as refused (its arguments are already {}). */
export function refuseToolCall(call: ToolCall, reason: string): void {
  Object.defineProperty(call, REFUSAL, { value: reason, enumerable: false, configurable: true });
}

/** Why a tool call from the model must not run, if it was refused while streaming. */
export function toolCallRefusal(call: ToolCall): string | undefined {
  const reason: unknown = (call as { [REFUSAL]?: unknown })[REFUSAL];
  return typeof reason === "string" ? reason : undefined;
}

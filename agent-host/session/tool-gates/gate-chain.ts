import type { BeforeToolCallResult } from "../../agent/types";
import type { ToolCall } from "../../ai/types";

/** Asked before a tool call runs: undefined lets it run, `{ block: true, reason }` refuses it. */
export type ToolGate = (call: ToolCall, signal: AbortSignal) => BeforeToolCallResult | Promise<BeforeToolCallResult>;

/** Gates asked in order; the first that blocks decides. */
export function chainGates(gates: readonly ToolGate[]): ToolGate {
  return async (call, signal) => {
    for (const gate of gates) {
      const verdict = await gate(call, signal);
      if (verdict?.block) return verdict;
    }
    return undefined;
  };
}

import type { Static, TSchema } from "@sinclair/typebox";
import type { ImageContent, TextContent, Tool } from "../ai/types";

/** What a tool gives back: content for the model, details for the UI (never sent to the model). */
export interface AgentToolResult<TDetails = unknown> {
  content: (TextContent | ImageContent)[];
  details?: TDetails;
  /** The call failed; the content says why, for the model to read. */
  isError?: boolean;
}

export type ToolUpdate<TDetails = unknown> = (partial: AgentToolResult<TDetails>) => void;

/**
 * A self-contained tool: a TypeBox schema (arguments are validated before execute is called) and
 * an execute function that honours the signal and may stream partial results. Throwing is the
 * same as returning an error result with the error's message.
 */
export interface AgentTool<TParams extends TSchema = TSchema, TDetails = unknown> extends Tool {
  parameters: TParams;
  /** Short human name for UIs ("Read file"). */
  label: string;
  /** Must not run at the same time as other tools of the turn (default: may run in parallel). */
  sequential?: boolean;
  /** Repairs malformed argument shapes models send, before validation (pi's prepareArguments). */
  prepareArguments?(args: unknown): unknown;
  execute(
    toolCallId: string,
    params: Static<TParams>,
    signal: AbortSignal,
    onUpdate: ToolUpdate<TDetails>,
  ): Promise<AgentToolResult<TDetails>>;
}

/** Any tool, whatever its parameters (for lists and registries; execute is a method, so this accepts every tool). */
export type AnyAgentTool = AgentTool<TSchema, unknown>;

/** Throws the abort reason if the signal fired: for tools between awaits. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new Error("Operation aborted");
}

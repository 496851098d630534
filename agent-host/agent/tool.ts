import type { Static, TSchema } from "@sinclair/typebox";
import type { ImageContent, TextContent, Tool } from "../ai/types";

/** What a tool gives back: content for the model, details for the UI (never sent to the model). */
export interface AgentToolResult<TDetails = unknown> {
  content: (TextContent | ImageContent)[];
  details?: TDetails;
  /** The call failed; the content says why, for the model to read. */
  isError?: boolean;
  /**
   * The value a script that called the tool receives (codemode), e.g. an MCP tool's whole
   * CallToolResult; neither the model nor the client sees it. Without it a script gets the text.
   */
  structured?: unknown;
}

/** A tool call a tool makes while it runs (a codemode script's `tools.x()`), and how it ended. */
export interface NestedToolOutcome {
  toolCallId: string;
  result: AgentToolResult;
  isError: boolean;
}

/**
 * What the agent loop gives a running tool: a way to call another tool through the same path as
 * the model's calls (argument validation, the before/after hooks, so the permission questions,
 * and tool events carrying `parentToolCallId`). The nested call's id is `<parent id>/<n>`.
 */
export interface NestedToolRunner {
  runTool(tool: AnyAgentTool, args: unknown, signal: AbortSignal, onUpdate?: ToolUpdate): Promise<NestedToolOutcome>;
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
    nested?: NestedToolRunner,
  ): Promise<AgentToolResult<TDetails>>;
}

/** Any tool, whatever its parameters (for lists and registries; execute is a method, so this accepts every tool). */
export type AnyAgentTool = AgentTool<TSchema, unknown>;

/** Throws the abort reason if the signal fired: for tools between awaits. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new Error("Operation aborted");
}

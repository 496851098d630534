import { Type } from "@sinclair/typebox";
import type { HostToolDefinition, HostToolResult, HostToolUpdate } from "../../shared/protocol";
import type { AgentToolResult, AnyAgentTool } from "../agent/tool";

interface PendingCall {
  resolve(result: AgentToolResult): void;
  onUpdate(partial: AgentToolResult): void;
}

/**
 * Tools the RPC client runs (seed 001): each becomes an agent tool whose execution sends
 * host_tool_call and waits for host_tool_result; an abort sends host_tool_cancel.
 */
export class HostToolBridge {
  private definitions: HostToolDefinition[] = [];
  private readonly pending = new Map<string, PendingCall>();
  private counter = 0;

  /** `timeoutMs`: how long a call may wait for its result (a host that never answers must not hang the agent). */
  constructor(
    private readonly send: (frame: object) => void,
    private readonly timeoutMs = Number(process.env.PI_HOST_TOOL_TIMEOUT_MS ?? 10 * 60_000),
  ) {}

  set(definitions: HostToolDefinition[]): string[] {
    this.definitions = definitions;
    return definitions.map((d) => d.name);
  }

  tools(): AnyAgentTool[] {
    return this.definitions.map((definition) => this.tool(definition));
  }

  private tool(definition: HostToolDefinition): AnyAgentTool {
    return {
      name: definition.name,
      label: definition.label ?? definition.name,
      description: definition.description,
      parameters: Type.Unsafe<Record<string, unknown>>(definition.parameters),
      execute: (toolCallId, params, signal, onUpdate) =>
        new Promise<AgentToolResult>((resolve) => {
          const id = `host_${++this.counter}`;
          const finish = (result: AgentToolResult) => {
            this.pending.delete(id);
            signal.removeEventListener("abort", onAbort);
            clearTimeout(timer);
            resolve(result);
          };
          const cancel = (text: string) => {
            this.send({ type: "host_tool_cancel", id: `host_cancel_${++this.counter}`, targetId: id });
            finish({ content: [{ type: "text", text }], isError: true });
          };
          const onAbort = () => cancel(`Host tool "${definition.name}" was aborted`);
          const timer = setTimeout(() => cancel(`Host tool "${definition.name}" did not answer within ${Math.round(this.timeoutMs / 1000)} s`), this.timeoutMs);
          if (signal.aborted) return onAbort();
          signal.addEventListener("abort", onAbort, { once: true });
          this.pending.set(id, { resolve: finish, onUpdate });
          this.send({ type: "host_tool_call", id, toolCallId, toolName: definition.name, arguments: params as Record<string, unknown> });
        }),
    };
  }

  /** A host_tool_update or host_tool_result from the client; unknown ids are ignored. */
  receive(frame: HostToolUpdate | HostToolResult): void {
    const call = this.pending.get(frame.id);
    if (!call) return;
    if (frame.type === "host_tool_update") call.onUpdate(frame.partialResult);
    else call.resolve({ ...frame.result, isError: frame.isError === true });
  }

  /** The client went away: fail every waiting call. */
  failAll(reason: string): void {
    for (const call of [...this.pending.values()]) call.resolve({ content: [{ type: "text", text: reason }], isError: true });
  }
}

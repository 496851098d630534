import { CancellationTokenSource, Disposable, type CancellationToken } from "vscode-jsonrpc";
import type { HostToolCall, HostToolDefinition, HostToolResult, HostToolUpdate, ToolResult } from "../protocol";
import { errorText } from "../error-text";

export interface HostToolContext {
  token: CancellationToken;
  toolCallId: string;
  /** Streams progress to the agent (host_tool_update). */
  update(partial: ToolResult): void;
}

export type HostToolOutcome = ToolResult & { isError?: boolean };
export type HostToolExecute = (args: Record<string, unknown>, context: HostToolContext) => Promise<HostToolOutcome>;

export interface HostTool {
  definition: HostToolDefinition;
  execute: HostToolExecute;
}

/**
 * Tools the client runs for the agent (seed 001). Answers host_tool_call by its `id` with
 * updates and one result, and cancels the call's token on host_tool_cancel.
 */
export class HostToolRegistry implements Disposable {
  private readonly tools = new Map<string, HostTool>();
  private readonly running = new Map<string, CancellationTokenSource>();

  constructor(private readonly send: (frame: HostToolUpdate | HostToolResult) => Promise<void>) {}

  register(tool: HostTool): Disposable {
    this.tools.set(tool.definition.name, tool);
    return Disposable.create(() => {
      if (this.tools.get(tool.definition.name) === tool) this.tools.delete(tool.definition.name);
    });
  }

  definitions(): HostToolDefinition[] {
    return [...this.tools.values()].map((tool) => tool.definition);
  }

  get runningCount(): number {
    return this.running.size;
  }

  async call(frame: HostToolCall): Promise<void> {
    const tool = this.tools.get(frame.toolName);
    if (!tool) {
      await this.finish(frame.id, { content: [{ type: "text", text: `Unknown host tool: ${frame.toolName}` }], isError: true });
      return;
    }
    const source = new CancellationTokenSource();
    this.running.set(frame.id, source);
    let outcome: HostToolOutcome;
    try {
      outcome = await tool.execute(frame.arguments ?? {}, {
        token: source.token,
        toolCallId: frame.toolCallId,
        update: (partial) => {
          // A partial result the agent can no longer take (it exited) is dropped: the final result reports.
          if (!source.token.isCancellationRequested) void this.send({ type: "host_tool_update", id: frame.id, partialResult: partial }).catch(() => undefined);
        },
      });
    } catch (error) {
      const message = errorText(error);
      outcome = { content: [{ type: "text", text: source.token.isCancellationRequested ? `Cancelled: ${message}` : message }], isError: true };
    } finally {
      this.running.delete(frame.id);
      source.dispose();
    }
    await this.finish(frame.id, outcome);
  }

  cancel(targetId: string): void {
    this.running.get(targetId)?.cancel();
  }

  private finish(id: string, outcome: HostToolOutcome): Promise<void> {
    const { isError, ...result } = outcome;
    const frame: HostToolResult = { type: "host_tool_result", id, result };
    if (isError) frame.isError = true;
    return this.send(frame).catch(() => undefined); // the agent is gone: no one is left to tell
  }

  dispose(): void {
    for (const source of this.running.values()) source.cancel();
    this.running.clear();
    this.tools.clear();
  }
}

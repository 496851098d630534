/**
 * What the host would write in --mode rpc (agent events, todo_update), as ACP session/update
 * notifications, in order: text and thinking deltas as message and thought chunks (the deltas of
 * one turn of the event loop in one chunk), tool executions as tool_call / tool_call_update (kind, title,
 * locations, the whole input, diffs for write and edit, the output text), the todo list as a plan.
 * A write's diff needs the file as it was: that read is awaited in the queue, so nothing overtakes it.
 */
import type { PlanEntry, SessionUpdate } from "./sdk";
import type { TodoPhase } from "../../shared/protocol";
import { resultContent, toolDiffs, toolKind, toolLocations, toolTitle } from "./tool-calls";
import { isAbsolute, resolve } from "node:path";

type Frame = { type?: unknown; [key: string]: unknown };
type Args = Record<string, unknown>;

export interface UpdateSink {
  notify(update: SessionUpdate): Promise<void>;
  /** The file's text before a write (null: it does not exist). */
  readBefore(absPath: string): Promise<string | null>;
  cwd: string;
  report(error: unknown): void;
}

export class UpdateStream {
  private chain: Promise<void> = Promise.resolve();
  private lastWrite: Promise<void> = Promise.resolve();
  private readonly before = new Map<string, Promise<string | null>>();
  private pendingText: { kind: "agent_message_chunk" | "agent_thought_chunk"; text: string } | undefined;
  /** Each running call's input: tool_execution_end does not carry it. */
  private readonly inputs = new Map<string, Args>();
  /** bash calls running in a client terminal: its id, shown instead of our copy of the output. */
  private readonly terminals = new Map<string, string>();

  constructor(private readonly sink: UpdateSink) {}

  /** A frame --mode rpc would write: translated when ACP has a notification for it. */
  frame(frame: Frame): void {
    switch (frame.type) {
      case "message_update": {
        const event = frame.assistantMessageEvent as { type?: string; delta?: unknown } | undefined;
        if (typeof event?.delta !== "string") return;
        if (event.type === "text_delta") this.chunk("agent_message_chunk", event.delta);
        else if (event.type === "thinking_delta") this.chunk("agent_thought_chunk", event.delta);
        return;
      }
      case "tool_execution_start":
        return this.toolStart(String(frame.toolCallId), String(frame.toolName), (frame.args ?? {}) as Args);
      case "tool_execution_update": {
        const id = String(frame.toolCallId);
        const terminalId = this.terminals.get(id);
        // A client terminal shows the output itself.
        return this.send([{ sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress", content: terminalId ? [{ type: "terminal", terminalId }] : resultContent(frame.partialResult) }]);
      }
      case "tool_execution_end":
        return this.toolEnd(String(frame.toolCallId), String(frame.toolName), frame.result, frame.isError === true);
      case "todo_update":
        return this.send([planUpdate(frame.phases as TodoPhase[])]);
    }
  }

  /** A command started in the client's terminal: the running bash call of that command shows it. */
  terminal(command: string, terminalId: string): void {
    const id = [...this.inputs].find(([callId, args]) => !this.terminals.has(callId) && typeof args.command === "string" && command.endsWith(args.command))?.[0];
    if (id === undefined) return;
    this.terminals.set(id, terminalId);
    this.send([{ sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress", content: [{ type: "terminal", terminalId }] }]);
  }

  /**
   * Deltas that arrive in the same turn of the event loop (one read of the model's stream holds
   * many) leave as one chunk: a notification costs the same for 20 characters as for 2,000.
   */
  private chunk(kind: "agent_message_chunk" | "agent_thought_chunk", text: string): void {
    if (this.pendingText && this.pendingText.kind !== kind) this.flushText();
    if (!this.pendingText) {
      this.pendingText = { kind, text: "" };
      setImmediate(() => this.flushText());
    }
    this.pendingText.text += text;
  }

  private flushText(): void {
    const pending = this.pendingText;
    if (!pending) return;
    this.pendingText = undefined;
    this.enqueue([{ sessionUpdate: pending.kind, content: { type: "text", text: pending.text } }]);
  }

  /** Updates in order after everything queued before them (text chunks still gathering first). */
  send(updates: SessionUpdate[] | (() => Promise<SessionUpdate[]>)): void {
    this.flushText();
    this.enqueue(updates);
  }

  private enqueue(updates: SessionUpdate[] | (() => Promise<SessionUpdate[]>)): void {
    this.chain = this.chain
      .then(() => (typeof updates === "function" ? updates() : updates))
      .then((list) => {
        for (const update of list) this.lastWrite = this.sink.notify(update).catch((error: unknown) => this.sink.report(error));
      })
      .catch((error: unknown) => this.sink.report(error));
  }

  /** Resolves once every update queued so far is written. */
  async flushed(): Promise<void> {
    this.flushText();
    await this.chain;
    await this.lastWrite;
  }

  private toolStart(id: string, name: string, args: Args): void {
    this.inputs.set(id, args);
    const path = typeof args.path === "string" ? args.path : undefined;
    if (name === "write" && path !== undefined) this.before.set(id, this.sink.readBefore(isAbsolute(path) ? path : resolve(this.sink.cwd, path)));
    const before = this.before.get(id);
    this.send(async () => [
      {
        sessionUpdate: "tool_call",
        toolCallId: id,
        title: toolTitle(name, args),
        kind: toolKind(name),
        status: "pending",
        rawInput: args,
        locations: toolLocations(name, args, this.sink.cwd),
        content: toolDiffs(name, args, this.sink.cwd, before ? await before : undefined),
        _meta: { pi: { toolName: name } },
      },
    ]);
  }

  private toolEnd(id: string, name: string, result: unknown, isError: boolean): void {
    const before = this.before.get(id);
    const args = this.inputs.get(id) ?? {};
    const terminalId = this.terminals.get(id);
    this.before.delete(id);
    this.inputs.delete(id);
    this.terminals.delete(id);
    this.send(async () => [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: id,
        status: isError ? "failed" : "completed",
        content: [
          ...(terminalId ? [{ type: "terminal" as const, terminalId }] : []),
          ...(isError ? [] : toolDiffs(name, args, this.sink.cwd, before ? await before : undefined)),
          ...resultContent(result),
        ],
        rawOutput: result as Record<string, unknown>,
      },
    ]);
  }
}

/** Our phases' tasks as ACP plan entries; a task given up is completed, with our status in `_meta`. */
export function planUpdate(phases: readonly TodoPhase[]): SessionUpdate {
  const entries: PlanEntry[] = phases.flatMap((phase) =>
    phase.tasks.map((task) => ({
      content: task.content,
      priority: "medium" as const,
      status: task.status === "abandoned" ? ("completed" as const) : task.status,
      _meta: { pi: { phase: phase.name, status: task.status } },
    })),
  );
  return { sessionUpdate: "plan", entries };
}

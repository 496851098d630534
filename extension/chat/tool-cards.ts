import { refusalOf, type EventOf, type TextOrImage } from "../../shared/protocol";
import { ToolClock } from "./tool-clock";
import type { Transcript } from "./transcript";

const toolOutputIntervalMs = 50;

/**
 * The cards of the tools a run calls: one per call from its start (a nested call under its
 * parent's card, after the parent's earlier nested calls), its live output at most every
 * toolOutputIntervalMs, then its result, status and own time (a question's wait left out).
 */
export class ToolCards {
  /** The running calls and their own time (a question's wait left out). */
  private readonly clock: ToolClock;
  /** For a call with nested calls running: the card of its latest nested call (the next goes after it). */
  private readonly lastNested = new Map<string, string>();
  private readonly pendingOutput = new Map<string, string>();
  private outputTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly transcript: Transcript,
    now: () => number,
  ) {
    this.clock = new ToolClock(now);
  }

  /** The cards of the tools running now, in the order they started. */
  get running(): string[] {
    return this.clock.running.map((id) => `tool-${id}`);
  }

  /** A question about the tool of this card is open: its card's time stops until the returned function is called. */
  questionOpen(toolKey: string): () => void {
    return toolKey.startsWith("tool-") ? this.clock.pauseFor(toolKey.slice("tool-".length)) : () => undefined;
  }

  start(event: EventOf<"tool_execution_start">): void {
    this.clock.start(event.toolCallId);
    const key = `tool-${event.toolCallId}`;
    const parent = event.parentToolCallId === undefined ? undefined : `tool-${event.parentToolCallId}`;
    // A nested call goes under its parent's card, after the parent's earlier nested calls.
    const after = parent === undefined ? undefined : (this.lastNested.get(parent) ?? parent);
    if (parent !== undefined) this.lastNested.set(parent, key);
    this.transcript.upsert({ key, kind: "tool", toolCallId: event.toolCallId, name: event.toolName, args: event.args, output: "", status: "running", ...(parent ? { parent } : {}) }, after);
  }

  output(event: EventOf<"tool_execution_update">): void {
    this.pendingOutput.set(`tool-${event.toolCallId}`, resultText(event.partialResult.content));
    this.outputTimer ??= setTimeout(() => this.flushOutput(), toolOutputIntervalMs);
  }

  /** A replayed call: its time is not known. */
  untimed(toolCallId: string): void {
    this.clock.stop(toolCallId);
  }

  end(event: EventOf<"tool_execution_end">): void {
    const key = `tool-${event.toolCallId}`;
    this.pendingOutput.delete(key);
    const ownTime = this.clock.stop(event.toolCallId);
    const existing = this.transcript.get(key, "tool");
    const output = resultText(event.result.content);
    const refused = event.isError ? refusalOf(event.toolName, output) : undefined;
    this.transcript.upsert({
      key,
      kind: "tool",
      toolCallId: event.toolCallId,
      name: event.toolName,
      args: existing?.args ?? {},
      output,
      status: refused ? "notRun" : event.isError ? "error" : "done",
      ...(refused ? { notRun: refused } : {}),
      durationMs: event.durationMs ?? ownTime,
      images: imageCount(event.result.content) || undefined,
      ...(existing?.parent ? { parent: existing.parent } : {}),
    });
    this.lastNested.delete(key); // its own nested calls are over
  }

  private flushOutput(): void {
    this.outputTimer = undefined;
    for (const [key, text] of this.pendingOutput) {
      if (this.transcript.get(key, "tool")?.status === "running") this.transcript.setOutput(key, text, true);
    }
    this.pendingOutput.clear();
  }

  dispose(): void {
    if (this.outputTimer) clearTimeout(this.outputTimer);
    this.outputTimer = undefined;
  }
}

function resultText(content: TextOrImage[]): string {
  return content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
}

/** The images of a message's or a result's content. */
export function imageCount(content: unknown): number {
  return Array.isArray(content) ? content.filter((c: { type?: string }) => c.type === "image").length : 0;
}

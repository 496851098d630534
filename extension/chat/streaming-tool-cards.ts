import type { AssistantMessageEvent } from "../../shared/protocol";
import type { StreamingAssistant } from "../../shared/rpc/message-builder";
import type { Transcript } from "./transcript";

/** At most one progress update of a streaming call's card per this many ms. */
const progressIntervalMs = 100;
/** Argument strings up to this length go on the card while it streams (a path, a command); longer ones wait for the call to run. */
const maxShownChars = 1000;

interface StreamingCall {
  id: string;
  key: string;
  name: string;
  sentAt: number;
  /** Characters of its arguments so far. */
  chars: number;
}

/**
 * A tool call's card while the model still streams its arguments: the tool, what it works on
 * (short arguments: the path, the command) and how much has come so far, updated at most every
 * 100 ms with small items, never the arguments themselves (a 1 MB `write` would be sent and
 * rendered again per delta). `tool_execution_start` then replaces the card with the call.
 */
export class StreamingToolCards {
  private readonly calls = new Map<number, StreamingCall>();
  /** Cards shown while streaming whose call may never run (a failed or aborted message). */
  private readonly shown = new Set<string>();

  constructor(
    private readonly transcript: Transcript,
    private readonly now: () => number,
  ) {}

  /** Follows a tool call's events (deltas only; a peer's cumulative snapshots are not followed). */
  event(event: AssistantMessageEvent, state: StreamingAssistant): void {
    if (event.type === "toolcall_start") {
      if (!event.id) return;
      const call = { id: event.id, key: `tool-${event.id}`, name: event.toolName ?? "", sentAt: this.now(), chars: 0 };
      this.calls.set(event.contentIndex, call);
      this.shown.add(call.key);
      this.send(call, {});
    } else if (event.type === "toolcall_delta" || event.type === "toolcall_end") {
      const index = typeof event.contentIndex === "number" ? event.contentIndex : -1;
      const call = this.calls.get(index);
      if (!call) return;
      if (event.type === "toolcall_end") this.calls.delete(index);
      else {
        call.chars += event.delta.length;
        if (this.now() - call.sentAt < progressIntervalMs) return;
      }
      const content = state.message.content[index];
      this.send(call, content?.type === "toolCall" ? content.arguments : {});
    }
  }

  /** The message ended: a call of a failed or aborted message never runs, its card goes. */
  messageEnded(ranOut: boolean): void {
    this.calls.clear();
    if (ranOut) this.removeUnstarted();
  }

  /** The run ended: cards of calls that never started go. */
  finish(): void {
    this.calls.clear();
    this.removeUnstarted();
  }

  private removeUnstarted(): void {
    for (const key of this.shown) if (this.transcript.get(key, "tool")?.argumentChars !== undefined) this.transcript.remove(key);
    this.shown.clear();
  }

  private send(call: StreamingCall, args: Record<string, unknown>): void {
    call.sentAt = this.now();
    this.transcript.upsert({ key: call.key, kind: "tool", toolCallId: call.id, name: call.name, args: shortArguments(args), output: "", status: "running", argumentChars: call.chars });
  }
}

/** Fields of the arguments looked at for a card (a model can stream an object of 100,000 keys). */
const maxShownFields = 32;
const maxKeyChars = 100;

/** The arguments a card can show while streaming: short strings, numbers and booleans of the first fields (bounded work, no long text copied). */
function shortArguments(args: Record<string, unknown>): Record<string, unknown> {
  const short: Record<string, unknown> = {};
  let fields = 0;
  for (const key in args) {
    if (++fields > maxShownFields) break;
    const value = args[key];
    if (key.length > maxKeyChars || !Object.hasOwn(args, key)) continue;
    if ((typeof value === "string" && value.length <= maxShownChars) || typeof value === "number" || typeof value === "boolean") short[key] = value;
  }
  return short;
}

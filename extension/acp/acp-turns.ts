/**
 * The turns of one ACP session as Pi runs them: a prompt is `session/prompt` (the response comes at
 * once, as Pi's does, the run's events follow), its stopReason ends the turn (agent_end,
 * agent_settled), and since ACP takes no message mid-turn, steering and follow-ups wait in our
 * queue (shown and editable as for Pi) and run in order when a turn ends. Abort is
 * `session/cancel`, with open questions cancelled and our terminals killed.
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import type { AgentEvent, AgentMessage } from "../../shared/protocol";
import type { AcpEventTranslator } from "./acp-events";

export type PromptImages = { data: string; mimeType: string }[] | undefined;
type QueuedPrompt = { text: string; images: PromptImages };
type StopReason = "stop" | "length" | "aborted" | "error";

const stopReasons: Record<string, StopReason> = {
  end_turn: "stop", max_tokens: "length", max_turn_requests: "length", refusal: "error", cancelled: "aborted",
};

export interface TurnContext {
  agent(): acp.ClientConnection["agent"];
  sessionId(): string;
  name(): string;
  emit(event: AgentEvent): void;
  /** The session's messages (get_messages): each turn's are added when it ends. */
  transcript: AgentMessage[];
  newTranslator(): AcpEventTranslator;
  /** Terminal output not yet in its card goes there (before a turn ends). */
  flushOutput(): void;
  killTerminals(): void;
  cancelQuestions(): void;
  /** Closes a sign-in the user is in (its call fails at once: acp-sign-in.ts). */
  cancelSignIn(): void;
  /** The call, and after "authentication required" and a sign-in, once more (acp-sign-in.ts); none once `aborted()`. */
  signedIn<T>(call: () => Promise<T>, aborted: () => boolean): Promise<T>;
}

export class AcpTurns {
  /** The translator of the turn going on (or of the replay a session/load makes). */
  events: AcpEventTranslator;
  private run: Promise<void> | undefined;
  private queue: { steering: QueuedPrompt[]; followUp: QueuedPrompt[] } = { steering: [], followUp: [] };
  private cancelled = false;

  constructor(private readonly context: TurnContext) {
    this.events = context.newTranslator();
  }

  get running(): boolean {
    return this.run !== undefined;
  }

  /** The turn was aborted: a question the agent asks now is answered cancelled. */
  get aborting(): boolean {
    return this.cancelled;
  }

  /** prompt, steer, follow_up: a turn starts, or the message waits in the queue for the turn's end. */
  send(message: string, images: PromptImages, steer: boolean): { disposition: "started" | "queued" } {
    if (!this.run) return this.prompt(message, images);
    (steer ? this.queue.steering : this.queue.followUp).push({ text: message, images });
    this.queueChanged();
    return { disposition: "queued" };
  }

  clearQueue(): { steering: string[]; followUp: string[] } {
    const cleared = { steering: this.queue.steering.map((m) => m.text), followUp: this.queue.followUp.map((m) => m.text) };
    this.queue = { steering: [], followUp: [] };
    this.queueChanged();
    return cleared;
  }

  /** session/cancel; open questions are answered "cancelled", a sign-in closed; commands are killed; resolves when the turn has ended. */
  async abort(): Promise<void> {
    // Also with no turn: a sign-in of Resume Session's load, say, is not left waiting for the user.
    this.context.cancelSignIn();
    const run = this.run;
    if (!run) return;
    this.cancelled = true;
    this.context.cancelQuestions();
    this.context.killTerminals();
    await this.context.agent().notify("session/cancel", { sessionId: this.context.sessionId() });
    await run;
  }

  /** Starts a turn; the response comes at once (as Pi's does), the run's events follow. */
  prompt(message: string, images: PromptImages): { disposition: "started" } {
    const { context } = this;
    const agent = context.agent();
    const sessionId = context.sessionId();
    const user: AgentMessage = { role: "user", content: message, timestamp: Date.now() };
    context.transcript.push(user);
    this.cancelled = false;
    this.events = context.newTranslator();
    context.emit({ type: "agent_start" });
    context.emit({ type: "message_start", message: user });
    context.emit({ type: "message_end", message: user });
    const prompt: acp.ContentBlock[] = [{ type: "text", text: message }, ...(images ?? []).map((i) => ({ type: "image" as const, data: i.data, mimeType: i.mimeType }))];
    // An agent may ask to sign in at the first prompt rather than at session/new.
    this.run = context
      // Aborted while the user signed in: not sent again.
      .signedIn((): Promise<acp.PromptResponse> => (this.cancelled ? Promise.resolve({ stopReason: "cancelled" }) : agent.request("session/prompt", { sessionId, prompt })), () => this.cancelled)
      .then(
        (result) => this.endRun(this.cancelled ? "aborted" : (stopReasons[result.stopReason] ?? "stop"), result.stopReason === "refusal" ? `${context.name()} refused` : undefined),
        (error: unknown) => this.endRun(this.cancelled ? "aborted" : "error", errorText(error)),
      );
    return { disposition: "started" };
  }

  private queueChanged(): void {
    this.context.emit({ type: "queue_update", steering: this.queue.steering.map((m) => m.text), followUp: this.queue.followUp.map((m) => m.text) });
  }

  private endRun(stopReason: StopReason, errorMessage?: string): void {
    const { context, events } = this;
    if (stopReason === "error" || stopReason === "aborted") context.killTerminals();
    context.flushOutput();
    events.finish(stopReason, errorMessage);
    if (errorMessage && stopReason === "error" && !events.messages.some((m) => m.role === "assistant")) {
      // A failed turn with no text: an assistant message that says why (the chat shows it as an error).
      const failed = { role: "assistant" as const, content: [], api: "acp", provider: context.name(), model: context.name(), usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason, errorMessage, timestamp: Date.now() };
      events.messages.push(failed);
      context.emit({ type: "message_start", message: failed });
      context.emit({ type: "message_end", message: failed });
    }
    context.transcript.push(...events.messages);
    this.run = undefined;
    context.emit({ type: "agent_end", messages: events.messages });
    // The next queued message, as Pi does after a turn; an abort or an error keeps the queue (the chat restores it).
    const next = stopReason === "stop" || stopReason === "length" ? (this.queue.steering.shift() ?? this.queue.followUp.shift()) : undefined;
    if (next) {
      this.queueChanged();
      this.prompt(next.text, next.images);
      return;
    }
    context.emit({ type: "agent_settled", ...(stopReason === "aborted" ? { aborted: true } : {}) });
  }
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object" && "message" in error) return String((error as { message: unknown }).message);
  return String(error);
}

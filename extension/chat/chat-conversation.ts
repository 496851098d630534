import * as vscode from "vscode";
import { errorText } from "../../shared/error-text";
import { contentText } from "../../shared/protocol";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import type { ChatEvents } from "./chat-events";
import type { ChatHeaderState } from "./chat-header-state";
import { quietly } from "./header-follow";
import type { SafeguardsEntry } from "./safeguards-note";
import { EventHold, replaySession } from "./session-replay";
import type { Transcript } from "./transcript";

/** What a chat's conversation follows of the supervisor. */
export type ConversationSource = Pick<AgentSupervisor, "agent" | "client" | "onAttach" | "onDidReplaceAgent">;

/** The parts of the chat the conversation writes to. */
export interface ConversationParts {
  transcript: Transcript;
  events: ChatEvents;
  header: ChatHeaderState;
  /** What the chat says of an agent without our policy: said again after a replay, forgotten with the agent. */
  safeguards: SafeguardsEntry;
  log: vscode.LogOutputChannel;
}

/**
 * The agent's conversation in a chat's transcript: its events as they come (held while a session's
 * messages are replayed), another session's messages once the agent opens it, none of the old
 * agent's once another is configured; and the session's first prompt, its title while it has no name.
 */
export class ChatConversation implements vscode.Disposable {
  /** Agent events wait while a session's messages are replayed (session-replay.ts). */
  private readonly replaying = new EventHold();
  private readonly firstPromptEmitter = new vscode.EventEmitter<void>();
  /** The session's first prompt (its title while it has no name) changed. */
  readonly onDidChangeFirstPrompt = this.firstPromptEmitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly supervisor: ConversationSource,
    private readonly parts: ConversationParts,
  ) {
    const { transcript, events, header, safeguards, log } = parts;
    this.subscriptions = [
      // Another session (new, switched, forked): show its messages instead.
      supervisor.agent.onDidChangeSession(({ previous }) => {
        if (previous || transcript.length === 0) void this.loadSession();
      }),
      // Another agent was configured: the old one's conversation, header and notes are not this one's.
      supervisor.onDidReplaceAgent(() => {
        safeguards.forget();
        this.noteFirstPrompt(undefined);
        transcript.clear();
        header.agentReplaced();
      }),
    ];
    supervisor.onAttach((client, lifetime) => {
      lifetime.add(client.onEvent((event) => this.replaying.deliver(() => {
        if (event.type === "message_start" && event.message.role === "user" && !header.firstPrompt) this.noteFirstPrompt(contentText(event.message.content));
        events.apply(event);
        if (event.type === "message_end") header.noteMessage(event.message);
        // The agent's commands changed (ACP agents and omp announce them): the slash menu asks again.
        if (event.type === "available_commands_update") quietly(header.refreshCommands(client), log);
      })));
    });
  }

  /** Replaces the transcript with the current session's messages. */
  async loadSession(): Promise<void> {
    const { transcript, events, header, safeguards, log } = this.parts;
    const client = this.supervisor.client;
    if (!client) return;
    try {
      const { messages } = await client.request("get_messages", {});
      const shown = await this.replaying.during(() =>
        replaySession(transcript, events, messages, () => safeguards.restore()),
      );
      if (!shown) return; // another session's load came after it
      const first = messages.find((m) => m.role === "user");
      this.noteFirstPrompt(first ? contentText(first.content) : undefined);
      quietly(header.refreshStats(client), log);
    } catch (error) {
      log.debug(`Chat: could not load the session's messages: ${errorText(error)}`);
    }
  }

  private noteFirstPrompt(text: string | undefined): void {
    if (this.parts.header.setFirstPrompt(text)) this.firstPromptEmitter.fire();
  }

  dispose(): void {
    this.firstPromptEmitter.dispose();
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
  }
}

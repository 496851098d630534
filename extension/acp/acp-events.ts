/**
 * ACP `session/update` notifications as the Pi RPC events the chat already renders: message and
 * thought chunks as one streamed assistant message (text and thinking blocks), tool calls and
 * their updates as tool_execution_* (an edit with a diff as Pi's `edit`/`write`, so the card shows
 * the diff and the checkpoint recorder sees the file; a command as `bash`), the plan as
 * todo_update, the commands as available_commands_update. Plain: no I/O, no SDK.
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import type { AgentEvent, AgentMessage, AssistantMessage, TextOrImage, ToolResult } from "../../shared/protocol";
import { contentToText, piToolOf, planPhases } from "./acp-tool-content";

type Emit = (event: AgentEvent) => void;
type Block = { type: "text"; text: string } | { type: "thinking"; thinking: string };

const zeroUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** A bash card's command (what its header shows); undefined for other cards. */
const commandOf = (tool: { toolName: string; args: Record<string, unknown> }): string | undefined =>
  tool.toolName === "bash" && typeof tool.args.command === "string" ? tool.args.command : undefined;

interface OpenTool {
  toolName: string;
  args: Record<string, unknown>;
  title: string;
  kind: string | undefined;
  content: acp.ToolCallContent[];
  startedAt: number;
  /** The file its tool_execution_start named, as an edit or a write. */
  startPath: string | undefined;
  /** The command its last start showed (bash cards). */
  shownCommand: string | undefined;
  /** Every terminal its content ever embedded: their output stays in the card (ours run them, acp-terminals.ts). */
  terminalIds: string[];
}

/** Turns one session's updates into Pi events, keeping the streamed assistant message open between chunks. */
export class AcpEventTranslator {
  private blocks: Block[] = [];
  private messageOpen = false;
  private writes = 0;
  private readonly tools = new Map<string, OpenTool>();
  /** Messages of this run, for agent_end and get_messages. */
  readonly messages: AgentMessage[] = [];

  constructor(
    private readonly emit: Emit,
    private readonly agentName: () => string,
    /** The output a terminal holds now (its end, bounded): read whenever a card is shown. */
    private readonly terminalText: (terminalId: string) => string | undefined = () => undefined,
    /**
     * A saved conversation replayed (session/load): the user's chunks become user messages and
     * each tool call an assistant message holding the call before its result, as get_messages gives
     * a Pi session (the chat draws its cards from them).
     */
    private readonly history = false,
  ) {}

  /** The tool calls not finished yet (for cancel and for the fs write's card). */
  openToolCalls(): ReadonlyMap<string, { toolName: string; args: Record<string, unknown> }> {
    return this.tools;
  }

  handle(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
        return this.chunk("text", update.content);
      case "agent_thought_chunk":
        return this.chunk("thinking", update.content);
      case "user_message_chunk":
        return this.history ? this.userChunk(update.content) : undefined;
      case "tool_call":
        return this.toolCall(update);
      case "tool_call_update":
        return this.toolUpdate(update);
      case "plan":
        this.emit({ type: "todo_update", phases: planPhases(update.entries) });
        return;
      case "available_commands_update":
        this.emit({ type: "available_commands_update", commands: update.availableCommands.map((c) => ({ name: c.name, description: c.description })) });
        return;
      case "session_info_update":
        if (typeof update.title === "string") this.emit({ type: "session_info_changed", name: update.title });
        return;
      default:
        return; // current_mode_update and the rest are read by the bridge (acp-bridge.ts) or have no view here
    }
  }

  /**
   * What a permission question says about its tool call: some agents (gemini-cli) ask before
   * they report the call, with its title, diff and locations only in the question.
   */
  noteToolCall(call: acp.ToolCallUpdate): void {
    if (this.tools.has(call.toolCallId)) this.toolUpdate({ ...call, status: undefined, sessionUpdate: "tool_call_update" });
    else this.toolCall({ ...call, title: call.title ?? "tool", status: "pending", sessionUpdate: "tool_call" } as acp.ToolCall);
  }

  /**
   * A write the agent asks of the client (fs/write_text_file). When no open tool call of its names
   * the file, a `write` card of our own is shown around it: the checkpoint recorder and the review
   * see every write served, whatever the agent reported. Returns the card's end.
   */
  announceWrite(absPath: string, content: string): (error?: string) => void {
    // Only a card whose start named the file counts: the recorder reads tool_execution_start alone.
    const named = [...this.tools.values()].some((t) => t.startPath === absPath);
    if (named) return () => undefined;
    this.closeMessage("toolUse");
    const toolCallId = `acp-write-${++this.writes}`;
    const args = { title: `Write ${absPath}`, path: absPath, content };
    const startedAt = Date.now();
    this.emit({ type: "tool_execution_start", toolCallId, toolName: "write", args });
    return (error) => {
      const result = { content: [{ type: "text" as const, text: error ?? `Wrote ${absPath}` }] };
      this.emit({ type: "tool_execution_end", toolCallId, toolName: "write", result, isError: error !== undefined, durationMs: Date.now() - startedAt });
      this.messages.push({ role: "toolResult", toolCallId, toolName: "write", content: result.content, isError: error !== undefined, timestamp: Date.now() });
    };
  }

  /**
   * A terminal has new output (ours run it): the cards embedding it show it again. Output that came
   * before the agent embedded the terminal is shown once it does (resultOf reads the terminal).
   */
  terminalOutput(terminalId: string): void {
    for (const [toolCallId, tool] of this.tools) {
      if (!tool.terminalIds.includes(terminalId)) continue;
      this.emit({ type: "tool_execution_update", toolCallId, toolName: tool.toolName, args: tool.args, partialResult: this.resultOf(tool) });
    }
  }

  /** Ends the streamed message and every open tool call (the prompt returned). */
  finish(stopReason: AssistantMessage["stopReason"], errorMessage?: string): void {
    this.closeMessage(stopReason, errorMessage);
    for (const [toolCallId, tool] of [...this.tools]) this.endTool(toolCallId, tool, stopReason === "aborted" ? "cancelled" : "failed");
  }

  private userChunk(content: acp.ContentBlock): void {
    this.closeMessage("stop");
    const text = content.type === "text" ? content.text : content.type === "resource_link" ? content.uri : undefined;
    if (text === undefined) return;
    const last = this.messages.at(-1);
    if (last?.role === "user" && typeof last.content === "string") last.content += text;
    else this.messages.push({ role: "user", content: text, timestamp: Date.now() });
  }

  private chunk(kind: "text" | "thinking", content: acp.ContentBlock): void {
    if (content.type !== "text") return;
    if (!this.messageOpen) {
      this.messageOpen = true;
      this.blocks = [];
      this.emit({ type: "message_start", message: this.assistant("pending") });
    }
    let last = this.blocks.at(-1);
    if (!last || last.type !== kind) {
      last = kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" };
      this.blocks.push(last);
      const contentIndex = this.blocks.length - 1;
      this.emit({ type: "message_update", assistantMessageEvent: kind === "text" ? { type: "text_start", contentIndex } : { type: "thinking_start", contentIndex } });
    }
    const contentIndex = this.blocks.length - 1;
    if (last.type === "text") last.text += content.text;
    else last.thinking += content.text;
    this.emit({ type: "message_update", assistantMessageEvent: kind === "text" ? { type: "text_delta", contentIndex, delta: content.text } : { type: "thinking_delta", contentIndex, delta: content.text } });
  }

  private assistant(stopReason: AssistantMessage["stopReason"], errorMessage?: string): AssistantMessage {
    return {
      role: "assistant",
      content: this.blocks.map((b) => ({ ...b })),
      api: "acp",
      provider: this.agentName(),
      model: this.agentName(),
      usage: zeroUsage,
      stopReason,
      ...(errorMessage ? { errorMessage } : {}),
      timestamp: Date.now(),
    };
  }

  private closeMessage(stopReason: AssistantMessage["stopReason"], errorMessage?: string): void {
    if (!this.messageOpen) return;
    this.messageOpen = false;
    this.blocks.forEach((block, contentIndex) =>
      this.emit({ type: "message_update", assistantMessageEvent: block.type === "text" ? { type: "text_end", contentIndex, content: block.text } : { type: "thinking_end", contentIndex, content: block.thinking } }),
    );
    const message = this.assistant(stopReason, errorMessage);
    this.messages.push(message);
    this.emit({ type: "message_end", message });
  }

  private toolCall(update: acp.ToolCall): void {
    this.closeMessage("toolUse");
    const existing = this.tools.get(update.toolCallId);
    if (existing) return this.toolUpdate({ ...update, sessionUpdate: "tool_call_update" });
    const { toolName, args } = piToolOf(update);
    const startPath = (toolName === "edit" || toolName === "write") && typeof args.path === "string" ? args.path : undefined;
    const tool: OpenTool = { toolName, args, title: update.title, kind: update.kind ?? undefined, content: [], startedAt: Date.now(), terminalIds: [], startPath, shownCommand: undefined };
    tool.shownCommand = commandOf(tool);
    this.setContent(tool, update.content ?? []);
    this.tools.set(update.toolCallId, tool);
    this.emit({ type: "tool_execution_start", toolCallId: update.toolCallId, toolName, args });
    this.afterStatus(update.toolCallId, tool, update.status ?? undefined);
  }

  private toolUpdate(update: acp.ToolCallUpdate & { sessionUpdate: "tool_call_update" }): void {
    let tool = this.tools.get(update.toolCallId);
    if (!tool) {
      // An update for a call we never saw start: start it now, so that its card exists.
      this.toolCall({ ...update, title: update.title ?? "tool", sessionUpdate: "tool_call" } as acp.ToolCall);
      return;
    }
    if (update.title) tool.title = update.title;
    if (update.kind) tool.kind = update.kind;
    if (update.content) this.setContent(tool, update.content);
    if (update.content || update.rawInput || update.title) tool.args = { ...tool.args, ...piToolOf({ ...tool, rawInput: update.rawInput ?? tool.args, content: tool.content, locations: update.locations ?? null }).args };
    // An agent that streams a call's input (opencode) can start it before its path is known: the
    // start is sent again once the path is there, as the checkpoint recorder and the review take
    // the file's before from a start that names it (else the write went unreviewed, by chance).
    if (tool.startPath === undefined && (tool.toolName === "edit" || tool.toolName === "write") && typeof tool.args.path === "string") {
      tool.startPath = tool.args.path;
      this.emit({ type: "tool_execution_start", toolCallId: update.toolCallId, toolName: tool.toolName, args: tool.args });
      tool.shownCommand = commandOf(tool);
    } else if (commandOf(tool) !== tool.shownCommand) {
      // Likewise a command first announced by a placeholder title (claude-code-acp's "Terminal"): the
      // card's header is its start's, so the start is sent again with the command.
      tool.shownCommand = commandOf(tool);
      this.emit({ type: "tool_execution_start", toolCallId: update.toolCallId, toolName: tool.toolName, args: tool.args });
      if (!update.content && this.resultOf(tool).content.length > 0) this.emit({ type: "tool_execution_update", toolCallId: update.toolCallId, toolName: tool.toolName, args: tool.args, partialResult: this.resultOf(tool) });
    }
    if (update.content) this.emit({ type: "tool_execution_update", toolCallId: update.toolCallId, toolName: tool.toolName, args: tool.args, partialResult: this.resultOf(tool) });
    this.afterStatus(update.toolCallId, tool, update.status ?? undefined);
  }

  /** A call's content is replaced by each update (the spec's rule); the terminals it embedded are kept. */
  private setContent(tool: OpenTool, content: acp.ToolCallContent[]): void {
    tool.content = content;
    for (const item of content) if (item.type === "terminal" && !tool.terminalIds.includes(item.terminalId)) tool.terminalIds.push(item.terminalId);
  }

  private afterStatus(toolCallId: string, tool: OpenTool, status: string | undefined): void {
    if (status === "completed" || status === "failed") this.endTool(toolCallId, tool, status);
  }

  private endTool(toolCallId: string, tool: OpenTool, how: "completed" | "failed" | "cancelled"): void {
    this.tools.delete(toolCallId);
    const result = this.resultOf(tool);
    if (how === "cancelled") result.content.push({ type: "text", text: "(cancelled)" });
    this.emit({ type: "tool_execution_end", toolCallId, toolName: tool.toolName, result, isError: how !== "completed", durationMs: Date.now() - tool.startedAt });
    if (this.history) this.messages.push({ ...this.assistant("toolUse"), content: [{ type: "toolCall", id: toolCallId, name: tool.toolName, arguments: tool.args }] });
    this.messages.push({ role: "toolResult", toolCallId, toolName: tool.toolName, content: result.content, details: result.details, isError: how !== "completed", timestamp: Date.now() });
  }

  private resultOf(tool: OpenTool): ToolResult & { content: TextOrImage[] } {
    const content = contentToText(tool.content);
    for (const terminalId of tool.terminalIds) {
      const text = this.terminalText(terminalId);
      if (text) content.push({ type: "text", text });
    }
    return { content, details: { acp: { title: tool.title, kind: tool.kind } } };
  }
}

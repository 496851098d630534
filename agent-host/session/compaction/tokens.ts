import type { AgentMessage, Usage } from "../../../shared/protocol";
import type { SessionEntry } from "../../../shared/session-format/schema";
import { currentSystemMessage, type Projection } from "./projection";

/** An image counts as this many characters (≈1200 tokens), whatever its size. */
const IMAGE_CHARS = 4800;
const CHARS_PER_TOKEN = 4;

type Blocks = string | readonly ({ type: "text"; text: string } | { type: "image" })[];

function blockChars(content: Blocks): number {
  if (typeof content === "string") return content.length;
  let chars = 0;
  for (const block of content) chars += block.type === "text" ? block.text.length : IMAGE_CHARS;
  return chars;
}

function messageChars(message: AgentMessage): number {
  switch (message.role) {
    case "system": {
      let chars = blockChars(message.content);
      for (const text of Object.values(message.sections ?? {})) chars += text?.length ?? 0;
      if (message.toolsAdded) chars += JSON.stringify(message.toolsAdded).length;
      return chars;
    }
    case "user":
    case "custom":
    case "toolResult":
      return blockChars(message.content);
    case "assistant": {
      let chars = 0;
      for (const block of message.content) {
        if (block.type === "text") chars += block.text.length;
        else if (block.type === "thinking") chars += block.thinking.length;
        else chars += block.name.length + JSON.stringify(block.arguments).length;
      }
      return chars;
    }
    case "bashExecution":
      return message.command.length + message.output.length;
    case "branchSummary":
    case "compactionSummary":
      return message.summary.length;
    default:
      return 0;
  }
}

/** A message's size in tokens by the chars/4 rule (errs on the high side for English and code). */
export function estimateTokens(message: AgentMessage): number {
  return Math.ceil(messageChars(message) / CHARS_PER_TOKEN);
}

export function estimateMessagesTokens(messages: readonly AgentMessage[]): number {
  let tokens = 0;
  for (const message of messages) tokens += estimateTokens(message);
  return tokens;
}

/** The context size a reply's usage reports: the total, or the sum of its parts when the provider gave no total. */
export function contextTokensFromUsage(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** Usage worth trusting: from an assistant reply that completed and reported something. */
function reliableUsage(message: AgentMessage): Usage | undefined {
  if (message.role !== "assistant" || message.stopReason === "aborted" || message.stopReason === "error") return undefined;
  return message.usage && contextTokensFromUsage(message.usage) > 0 ? message.usage : undefined;
}

export interface ContextEstimate {
  tokens: number;
  /** What the last reliable usage reported (0 when there is none). */
  usageTokens: number;
  /** chars/4 for the messages after it (all messages when there is none). */
  trailingTokens: number;
  lastUsageIndex: number | null;
}

/**
 * The context size: the usage of the last completed assistant reply (the provider's own count of
 * everything up to and including it) plus chars/4 for every message after it.
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): ContextEstimate {
  for (let i = messages.length - 1; i >= 0; i--) {
    const usage = reliableUsage(messages[i]);
    if (!usage) continue;
    const usageTokens = contextTokensFromUsage(usage);
    const trailingTokens = estimateMessagesTokens(messages.slice(i + 1));
    return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: i };
  }
  const tokens = estimateMessagesTokens(messages);
  return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
}

/**
 * The size of a branch's projected context. A reported usage is trusted only when it came after
 * the latest compaction or context edit on the path (which change what was sent); otherwise
 * everything is estimated: the current system prompt once, plus every other message.
 */
export function estimateProjectedTokens(projection: Projection, path: readonly SessionEntry[]): number {
  const estimate = estimateContextTokens(projection.messages);
  if (estimate.lastUsageIndex !== null) {
    let seen = 0;
    let usageEntryId: string | undefined;
    for (const { entry, messages } of projection.entries) {
      if (estimate.lastUsageIndex < seen + messages.length) {
        usageEntryId = entry.id;
        break;
      }
      seen += messages.length;
    }
    const usageAt = path.findIndex((e) => e.id === usageEntryId);
    let invalidatedAt = -1;
    for (let i = path.length - 1; i >= 0 && invalidatedAt === -1; i--) if (path[i].type === "context_edit" || path[i].type === "compaction") invalidatedAt = i;
    if (usageAt > invalidatedAt) return estimate.tokens;
  }
  const system = currentSystemMessage(projection.messages);
  return (system ? estimateTokens(system) : 0) + estimateMessagesTokens(projection.messages.filter((m) => m.role !== "system"));
}

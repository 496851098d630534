import type { SessionStats } from "../../../shared/protocol";
import { contextTokensFromUsage, estimateProjectedTokens, projectBranch } from "../compaction";
import type { SessionManager } from "./session-manager";

/**
 * The context size as pi reports it in `contextUsage.tokens`: estimated over the branch's projected
 * context (the last trusted usage plus chars/4 after it); null after a compaction until a reply
 * that came after it reported usage.
 */
export function contextTokens(sessions: SessionManager): number | null {
  const path = sessions.branch();
  const projection = projectBranch(path);
  let compactionAt = -1;
  for (let i = path.length - 1; i >= 0 && compactionAt === -1; i--) if (path[i].type === "compaction") compactionAt = i;
  if (compactionAt !== -1) {
    const usable = new Set(
      projection.entries
        .filter(({ messages }) => messages.some((m) => m.role === "assistant" && m.stopReason !== "aborted" && m.stopReason !== "error" && contextTokensFromUsage(m.usage) > 0))
        .map(({ entry }) => entry.id),
    );
    if (!path.slice(compactionAt + 1).some((e) => usable.has(e.id))) return null;
  }
  return estimateProjectedTokens(projection, path);
}

/** Message, token and cost totals over every entry of the session file (all branches), as pi counts them. */
export function sessionStats(sessions: SessionManager, contextWindow: number, contextTokens: number | null): SessionStats {
  const stats: SessionStats = {
    sessionId: sessions.sessionId,
    userMessages: 0,
    assistantMessages: 0,
    toolCalls: 0,
    toolResults: 0,
    totalMessages: 0,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    cost: 0,
  };
  if (sessions.sessionFile) stats.sessionFile = sessions.sessionFile;
  const addUsage = (u: { input: number; output: number; cacheRead: number; cacheWrite: number; cost: { total: number } }) => {
    stats.tokens.input += u.input;
    stats.tokens.output += u.output;
    stats.tokens.cacheRead += u.cacheRead;
    stats.tokens.cacheWrite += u.cacheWrite;
    stats.cost += u.cost.total;
  };
  for (const entry of sessions.allEntries()) {
    if (entry.type === "usage") addUsage(entry.usage);
    if ((entry.type === "compaction" || entry.type === "branch_summary") && entry.usage) addUsage(entry.usage);
    if (entry.type !== "message") continue;
    const message = entry.message;
    stats.totalMessages++;
    if (message.role === "user") stats.userMessages++;
    else if (message.role === "toolResult") {
      stats.toolResults++;
      if (message.usage) addUsage(message.usage);
    } else if (message.role === "assistant") {
      stats.assistantMessages++;
      stats.toolCalls += message.content.filter((c) => c.type === "toolCall").length;
      addUsage(message.usage);
    }
  }
  stats.tokens.total = stats.tokens.input + stats.tokens.output + stats.tokens.cacheRead + stats.tokens.cacheWrite;
  if (contextWindow > 0) {
    stats.contextUsage = { tokens: contextTokens, contextWindow, percent: contextTokens === null ? null : (contextTokens / contextWindow) * 100 };
  }
  return stats;
}

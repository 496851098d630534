/**
 * What ACP's tool calls and plans hold, as Pi's: a call as a Pi tool name and arguments, its
 * content as a card's text, the plan as todos. Plain functions of the SDK's types.
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import type { TextOrImage, TodoPhase } from "../../shared/protocol";

/** A tool call as a Pi tool name and arguments (what the card and the checkpoint recorder read). */
export function piToolOf(call: { title?: string | null; kind?: string | null; rawInput?: unknown; content?: acp.ToolCallContent[] | null; locations?: acp.ToolCallLocation[] | null }): { toolName: string; args: Record<string, unknown> } {
  const title = call.title ?? "";
  const raw = call.rawInput && typeof call.rawInput === "object" ? (call.rawInput as Record<string, unknown>) : {};
  const diffs = (call.content ?? []).flatMap((c) => (c.type === "diff" ? [c] : []));
  const path = diffs[0]?.path ?? call.locations?.[0]?.path;
  if (call.kind === "edit" && path) {
    const first = diffs[0];
    if (first && (first.oldText === null || first.oldText === undefined)) return { toolName: "write", args: { title, path, content: first.newText } };
    const edits = diffs.filter((d) => d.path === path).map((d) => ({ oldText: d.oldText ?? "", newText: d.newText }));
    return { toolName: "edit", args: { title, path, ...(edits.length ? { edits } : {}) } };
  }
  if (call.kind === "execute") {
    const command = typeof raw.command === "string" ? raw.command : Array.isArray(raw.command) ? raw.command.join(" ") : typeof raw.cmd === "string" ? raw.cmd : title;
    return { toolName: "bash", args: { title, command } };
  }
  if (call.kind === "read" && path) return { toolName: "read", args: { title, path } };
  return { toolName: call.kind && call.kind !== "other" ? call.kind : "tool", args: { title, ...raw } };
}

/** A tool call's content as the text a card shows (text blocks, diffs as a short header, terminals by id). */
export function contentToText(content: readonly acp.ToolCallContent[] | null | undefined): TextOrImage[] {
  const out: TextOrImage[] = [];
  for (const item of content ?? []) {
    if (item.type === "content") {
      const block = item.content;
      if (block.type === "text") out.push({ type: "text", text: block.text });
      else if (block.type === "image") out.push({ type: "image", data: block.data, mimeType: block.mimeType });
      else if (block.type === "resource_link") out.push({ type: "text", text: block.uri });
      else if (block.type === "resource" && "text" in block.resource) out.push({ type: "text", text: block.resource.text });
    } else if (item.type === "diff") {
      out.push({ type: "text", text: `${item.oldText === null || item.oldText === undefined ? "Created" : "Edited"} ${item.path}` });
    }
  }
  return out;
}

/** The agent's plan as our one phase of todos. */
export function planPhases(entries: readonly acp.PlanEntry[]): TodoPhase[] {
  const status = (s: string) => (s === "in_progress" || s === "completed" ? s : "pending") as "pending" | "in_progress" | "completed";
  return [{ id: "acp-plan", name: "Plan", tasks: entries.map((entry, i) => ({ id: String(i + 1), content: entry.content, status: status(entry.status) })) }];
}

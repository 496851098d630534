import type { DialogRequest } from "../../shared/protocol";
import { resolveInWorkspace, type ChatLinks } from "./chat-links";
import { fileChangeOf } from "./edit-diff";
import type { ChatChanges } from "./session-actions";
import type { Transcript } from "./transcript";

/** One diff per change: the review's (with Keep / Undo) while the file is under review, else what the call did. */
export async function openToolDiff(name: string, args: unknown, links: ChatLinks, changes: ChatChanges | undefined): Promise<void> {
  const change = fileChangeOf(name, args);
  const near = change?.content ?? change?.edits?.find((e) => e.newText !== "")?.newText;
  if (change && (await changes?.openDiff(resolveInWorkspace(change.path).fsPath, near))) return;
  await links.openDiff(name, args);
}

/**
 * For a question about a file change (our host names the call that asks; its card holds the whole
 * arguments, sent before the question), what opens that change as a diff beside the question,
 * which keeps the focus; undefined for any other question.
 */
export function changeAskedAbout(request: DialogRequest, transcript: Transcript, links: ChatLinks): (() => Promise<unknown>) | undefined {
  const id = request.method === "select" ? request.toolCallId : undefined;
  const tool = id === undefined ? undefined : transcript.get(`tool-${id}`, "tool");
  if (!tool || !fileChangeOf(tool.name, tool.args)) return undefined;
  return () => links.openDiff(tool.name, tool.args, true);
}

import type { AgentCapabilities } from "../../shared/rpc";

/** Said in the status tooltip only: the chat says it in plain words (safeguards-note.ts), no toast. */
export const noEditorToolsNote = "This agent cannot use the editor's tools (unsaved buffers, diagnostics, definitions).";

/** What a less capable agent means for the user: each missing capability as one sentence. */
export function capabilityNotes(caps: AgentCapabilities, wantsInterruptMode: boolean): string[] {
  const notes: string[] = [];
  if (!caps.hostTools) notes.push(noEditorToolsNote);
  if (!caps.sessionTree) notes.push("This agent cannot list thinking levels or the session tree: Set Thinking Level offers every level.");
  if (!caps.interruptMode && wantsInterruptMode) notes.push("This agent has no interrupt mode: the setting pi.queue.interruptMode is ignored.");
  return notes;
}

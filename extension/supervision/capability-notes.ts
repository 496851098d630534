import type { AgentCapabilities } from "../../shared/rpc";

/** How the editor's tools reach the agent: its host-tool protocol, or the editor bridge (a Pi extension loaded with -e). */
export type EditorToolsVia = "protocol" | "bridge";

/** What a less capable agent means for the user: each missing capability as one sentence. */
export function capabilityNotes(caps: AgentCapabilities, wantsInterruptMode: boolean, editorToolsVia?: EditorToolsVia): string[] {
  const notes: string[] = [];
  if (editorToolsVia === "bridge") notes.push("This agent has no host-tool protocol: the editor tools reach it through the editor bridge (a Pi extension).");
  else if (!caps.hostTools) notes.push("This agent has no host tools: editor tools are off.");
  if (!caps.sessionTree) notes.push("This agent cannot list thinking levels or the session tree: Set Thinking Level offers every level.");
  if (!caps.interruptMode && wantsInterruptMode) notes.push("This agent has no interrupt mode: the setting pi.queue.interruptMode is ignored.");
  return notes;
}

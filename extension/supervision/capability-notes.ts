import type { AgentCapabilities } from "../../shared/rpc";

/** What a less capable agent means for the user: each missing capability as one sentence. */
export function capabilityNotes(caps: AgentCapabilities, wantsInterruptMode: boolean): string[] {
  const notes: string[] = [];
  if (!caps.hostTools) notes.push("This agent has no host tools: editor tools are off.");
  if (!caps.sessionTree) notes.push("This agent cannot list thinking levels or the session tree: Set Thinking Level offers every level.");
  if (!caps.interruptMode && wantsInterruptMode) notes.push("This agent has no interrupt mode: the setting pi.queue.interruptMode is ignored.");
  return notes;
}

import type { AgentCapabilities } from "../../shared/rpc";

/** How the editor's tools reach the agent: its host-tool protocol, or the editor bridge (a Pi extension loaded with -e). */
export type EditorToolsVia = "protocol" | "bridge";

/** What the chat header says about the editor tools: nothing when they come through the host-tool protocol. */
export function editorToolsBadge(editorToolsVia: EditorToolsVia | undefined): { label: string; detail: string } | undefined {
  // Said as what the user gets; how it gets there (the bridge) is the tooltip's.
  if (editorToolsVia === "bridge") return { label: "Editor tools on", detail: "The agent can use the editor's own tools: it reads your unsaved changes, its edits open for your review, and it sees diagnostics and symbols. This agent has no protocol of its own for them: they reach it through a small Pi extension the editor loads into it." };
  if (editorToolsVia === undefined) return { label: "No editor tools", detail: "This agent took neither the host-tool protocol nor the editor bridge: the editor's tools are off." };
  return undefined;
}

/** Said in the status tooltip only: the chat says it in plain words (safeguards-note.ts), no toast. */
export const noEditorToolsNote = "This agent cannot use the editor's tools (unsaved buffers, diagnostics, definitions).";
/** The same, for an agent that gets the editor's tools through the editor bridge. */
export const bridgeEditorToolsNote = "This agent has no host-tool protocol: the editor tools reach it through the editor bridge (a Pi extension).";

/** Said in the status tooltip only: nothing the user asked for is lost (Set Thinking Level still works). */
export const noSessionTreeNote = "This agent cannot list thinking levels or the session tree: Set Thinking Level offers every level.";

/** The notes worth a toast at start: those about a setting the user made that this agent ignores. */
export function toastWorthy(notes: readonly string[]): string[] {
  return notes.filter((note) => note !== noEditorToolsNote && note !== bridgeEditorToolsNote && note !== noSessionTreeNote);
}

/** A Pi-RPC agent as the user knows it: by what the probe found (pi, omp), not by its command (`node`, `bun`, a path). */
export function agentName(launch: { label: string; bundled: boolean; protocol?: string }, caps: AgentCapabilities): string {
  if (launch.bundled || launch.protocol === "acp") return launch.label;
  return caps.flavor === "omp" ? "omp" : "pi";
}

/** What a less capable agent means for the user: each missing capability as one sentence. */
export function capabilityNotes(caps: AgentCapabilities, wantsInterruptMode: boolean, editorToolsVia?: EditorToolsVia): string[] {
  const notes: string[] = [];
  if (editorToolsVia === "bridge") notes.push(bridgeEditorToolsNote);
  else if (!caps.hostTools) notes.push(noEditorToolsNote);
  if (!caps.sessionTree) notes.push(noSessionTreeNote);
  if (!caps.interruptMode && wantsInterruptMode) notes.push("This agent has no interrupt mode: the setting pi.queue.interruptMode is ignored.");
  return notes;
}

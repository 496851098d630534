/**
 * What the chat says once to a user of an agent without our policy (pi, omp): which of the
 * editor's safeguards hold and which do not, in plain words (#32). Plain text: the chat escapes it.
 */
import type { AgentCapabilities } from "../../shared/rpc";
import type { ChatItemOf } from "../../shared/webview-protocol";
import type { EditorToolsVia } from "../supervision/capability-notes";

/** The note's stable key: one per chat, replaced in place (never repeated) when the agent restarts. */
export const SAFEGUARDS_KEY = "safeguards";

export interface SafeguardsFacts {
  capabilities: AgentCapabilities;
  /** The sandbox as the chat header says it; undefined: sandboxed as usual. */
  sandbox: { label: string; detail: string } | undefined;
  /** pi.sandbox.mode, for what "sandboxed as usual" means. */
  sandboxMode: "read-only" | "workspace-write" | "full-access";
  /** How the editor's tools reach it (the editor bridge for pi 0.x), when they do. */
  editorToolsVia?: EditorToolsVia | undefined;
}

/** The note, or undefined for an agent that keeps our policy (the bundled host: permission modes, questions). */
export function safeguardsNote({ capabilities, sandbox, sandboxMode, editorToolsVia }: SafeguardsFacts): ChatItemOf<"notice"> | undefined {
  if (capabilities.permissionModes) return undefined;
  // Named by what it is (probed), not by its command (which may be `node` or a path).
  const name = capabilities.flavor === "omp" ? "omp" : "pi";
  const lines = [
    `${name} runs its tools by its own rules, not the editor's:`,
    `• No question before it changes a file or runs a command, unless its own extensions ask. Plan and Ask modes are not available with it.`,
    sandbox
      ? `• Sandbox: ${sandbox.label}. ${sandbox.detail}`
      : `• Sandbox: on. It can change files only in ${sandboxMode === "read-only" ? "its own folder (pi.sandbox.mode is read-only)" : "this workspace and its own folder"}; its network is open (it must reach its model).`,
    `• The Changes view still lists every file it changes, to keep or undo.`,
  ];
  if (!capabilities.hostTools && editorToolsVia !== "bridge") lines.push(`• It cannot read the editor's unsaved buffers or diagnostics: it sees files as saved.`);
  return { key: SAFEGUARDS_KEY, kind: "notice", title: `Safeguards with ${name}`, text: lines.join("\n") };
}

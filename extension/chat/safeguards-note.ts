/**
 * What the chat says once to a user of an agent without our policy (pi, omp): which of the
 * editor's safeguards hold and which do not, in plain words (#32). Plain text: the chat escapes it.
 */
import type { AgentCapabilities } from "../../shared/rpc";
import type { ChatItemOf } from "../../shared/chat-items";
import type { EditorToolsVia } from "../supervision/capability-notes";
import type { Transcript } from "./transcript";

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
  /** An ACP agent, by the name it gives: what it gets here differs from pi's. */
  acpAgent?: string | undefined;
}

/** The note, or undefined for an agent that keeps our policy (the bundled host: permission modes, questions). */
export function safeguardsNote({ capabilities, sandbox, sandboxMode, editorToolsVia, acpAgent }: SafeguardsFacts): ChatItemOf<"notice"> | undefined {
  if (acpAgent !== undefined) return acpNote(acpAgent, sandbox);
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

/**
 * An ACP agent: its own rules and modes, what the editor does for it (its questions, the files and
 * terminals it asks of the editor), and what ACP has no word for, said rather than offered.
 */
function acpNote(agent: string, sandbox: SafeguardsFacts["sandbox"]): ChatItemOf<"notice"> {
  const lines = [
    `${agent} is an ACP agent: it runs its tools by its own rules, not the editor's.`,
    `• It asks when it chooses to, in its own modes (the mode picker lists them); our Plan and Ask modes are not available with it.`,
    `• Sandbox: ${sandbox ? `${sandbox.label}. ${sandbox.detail}` : "on, as the header says."}`,
    `• Files it reads and writes through the editor see unsaved buffers, and its writes are reviewed per hunk and checkpointed; what it writes on its own the Changes view still lists.`,
    `• Commands it runs through the editor show in a terminal and stop on Abort.`,
    `• ACP has no session tree, fork, compaction or Pi extension UI: those commands say so.`,
  ];
  return { key: SAFEGUARDS_KEY, kind: "notice", title: `Safeguards with ${agent}`, text: lines.join("\n") };
}

/** The note in one chat: at the top of its transcript once, again after a replay, forgotten with its agent. */
export class SafeguardsEntry {
  private note: ChatItemOf<"notice"> | undefined;

  constructor(private readonly transcript: Transcript) {}

  /** The agent was probed: its note, once per transcript (never repeated after a restart). */
  agentReady(facts: SafeguardsFacts): void {
    this.note = safeguardsNote(facts);
    if (this.note && !this.transcript.get(SAFEGUARDS_KEY, "notice")) this.transcript.upsert(this.note);
  }

  /** The transcript was rebuilt (a session's messages replayed): the note at its top again. */
  restore(): void {
    if (this.note) this.transcript.upsert(this.note);
  }

  /** Another agent was configured: the old one's note is not this one's. */
  forget(): void {
    this.note = undefined;
  }
}

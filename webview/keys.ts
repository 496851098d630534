/** What a key in the message box (and in the transcript) does. Pure, so it can be tested without a DOM. */
export type ComposerAction =
  | "send"
  | "steer"
  | "followUp"
  | "restoreQueue"
  | "completeNext"
  | "completePrevious"
  | "completeAccept"
  | "completeClose"
  | "cycleMode";

/** Switches to the next permission mode from the message box. Shift+Tab is not free there: it moves the focus back (keyboard users rely on it). */
export const cycleModeKey = "Alt+M";

export interface KeyInfo {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  isComposing: boolean;
  /** The physical key ("KeyM"): Alt+M types "µ" on a Mac keyboard. */
  code?: string;
}

export interface ComposerContext {
  running: boolean;
  completionOpen: boolean;
  queueLength: number;
}

/**
 * Enter sends (steers while the agent runs); Alt+Enter or Ctrl/Cmd+Enter queues a follow-up
 * while it runs; Shift+Enter is a new line; Escape puts the queue back into the box.
 */
export function composerAction(e: KeyInfo, ctx: ComposerContext): ComposerAction | undefined {
  if (e.isComposing) return undefined;
  if (ctx.completionOpen) {
    if (e.key === "ArrowDown") return "completeNext";
    if (e.key === "ArrowUp") return "completePrevious";
    if (e.key === "Tab" || (e.key === "Enter" && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey)) return "completeAccept";
    if (e.key === "Escape") return "completeClose";
  }
  if (e.key === "Enter") {
    if (e.shiftKey) return undefined;
    if (e.altKey || e.ctrlKey || e.metaKey) return ctx.running ? "followUp" : "send";
    return ctx.running ? "steer" : "send";
  }
  if (e.key === "Escape" && ctx.queueLength > 0) return "restoreQueue";
  if (e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && (e.code === "KeyM" || e.key.toLowerCase() === "m")) return "cycleMode";
  return undefined;
}

/** The hint beside the buttons (short) and its tooltip (all of it). */
export function composerHint(running: boolean, queueLength: number, modesAvailable = true): { text: string; title: string } {
  if (!running) {
    return {
      text: `Enter to send · Shift+Enter new line · / commands · @ context · !cmd shell${modesAvailable ? ` · ${cycleModeKey} mode` : ""}`,
      title: `Enter sends · Shift+Enter adds a new line · / completes commands · @ attaches files, folders, lines (@file#L10-20), @selection or @problems; paste or drop images · !cmd runs a shell command (!!cmd keeps it out of the context)${modesAvailable ? ` · ${cycleModeKey} switches the permission mode (Ask, Auto-accept edits, Plan)` : ""}`,
    };
  }
  const restore = queueLength > 0 ? " · Esc puts the queue back" : "";
  return { text: `Enter steers · Alt+Enter queues a follow-up${restore}`, title: "Enter steers the agent (after its current tool calls) · Alt+Enter or Ctrl+Enter queues a follow-up (when it would stop) · Escape puts the queue back into the box" };
}

/** What a key does in the transcript: move between entries, into an entry's controls, or back out. */
export type TranscriptAction = "previous" | "next" | "first" | "last" | "enter" | "exit";

/**
 * On an entry (the transcript's one Tab stop): Up/Down step to the previous/next entry,
 * Home/End (also with Ctrl) go to the first/last, Enter or F2 moves into the entry's controls.
 * On a control inside an entry: Escape goes back to the entry. Keys with Alt, Shift or Meta are
 * left alone (Alt+Up/Down belong to the queue, Shift extends a selection).
 */
export function transcriptAction(e: KeyInfo, onEntry: boolean): TranscriptAction | undefined {
  if (e.isComposing || e.altKey || e.shiftKey || e.metaKey) return undefined;
  if (!onEntry) return e.key === "Escape" && !e.ctrlKey ? "exit" : undefined;
  if (e.key === "Home") return "first";
  if (e.key === "End") return "last";
  if (e.ctrlKey) return undefined;
  if (e.key === "ArrowUp") return "previous";
  if (e.key === "ArrowDown") return "next";
  if (e.key === "Enter" || e.key === "F2") return "enter";
  return undefined;
}

/** What an edit or write tool call changed, from its arguments (Pi's and older shapes). */
export interface FileChange {
  path: string;
  /** Text replaced by each edit, or undefined for a write. */
  edits?: { oldText: string; newText: string }[];
  /** A write's whole new content. */
  content?: string;
}

export function fileChangeOf(name: string, args: unknown): FileChange | undefined {
  if (!args || typeof args !== "object") return undefined;
  const a = args as Record<string, unknown>;
  const path = typeof a.path === "string" ? a.path : typeof a.file_path === "string" ? a.file_path : undefined;
  if (!path) return undefined;
  if (name === "write" && typeof a.content === "string") return { path, content: a.content };
  if (name !== "edit") return undefined;
  const raw = Array.isArray(a.edits) ? a.edits : typeof a.oldText === "string" ? [{ oldText: a.oldText, newText: a.newText }] : [];
  const edits = raw.flatMap((e: unknown) => {
    const { oldText, newText } = (e ?? {}) as { oldText?: unknown; newText?: unknown };
    return typeof oldText === "string" && typeof newText === "string" ? [{ oldText, newText }] : [];
  });
  return edits.length > 0 ? { path, edits } : undefined;
}

/**
 * The file before and after an edit. With the file as it is now (after the edit) the whole file
 * is shown, the edits undone to get "before"; for a call not run yet (`pending`), the file now and
 * the edits applied to it; otherwise only the replaced snippets.
 */
export function beforeAndAfter(change: FileChange, current: string | undefined, pending = false): { before: string; after: string } {
  if (change.content !== undefined) return { before: current !== undefined && current !== change.content ? current : "", after: change.content };
  const edits = change.edits ?? [];
  // A call not run yet (its permission question): the file now, and the file as the edits would leave it.
  if (pending && current !== undefined && edits.every((e) => current.includes(e.oldText))) {
    let after = current;
    for (const e of edits) after = after.replace(e.oldText, () => e.newText);
    return { before: current, after };
  }
  if (current !== undefined && edits.every((e) => current.includes(e.newText))) {
    let before = current;
    for (const e of edits) before = before.replace(e.newText, () => e.oldText);
    return { before, after: current };
  }
  const join = (texts: string[]) => texts.join("\n⋯\n");
  return { before: join(edits.map((e) => e.oldText)), after: join(edits.map((e) => e.newText)) };
}

/**
 * What a write or edit call would change, whole, for the question about a protected file: a
 * unified diff of the file now against the file after the call (every changed line, with a little
 * context). An edit that would not apply (its text not found) shows each edit's old → new text as
 * sent, so the user still sees everything the call holds.
 */
import { readFileSync } from "node:fs";
import { generateUnifiedPatch } from "../../tools/diff";
import { prepareEditArguments } from "../../tools/edit";
import { applyEdits, normalizeToLF, type Edit } from "../../tools/edit-apply";

const CONTEXT_LINES = 3;

function currentText(absPath: string): string | undefined {
  try {
    return readFileSync(absPath, "utf8");
  } catch {
    return undefined;
  }
}

const isEdit = (value: unknown): value is Edit =>
  typeof value === "object" && value !== null && typeof (value as Edit).oldText === "string" && typeof (value as Edit).newText === "string";

/** The change `tool` (write, edit or editor_edit) would make to the file at `absPath`, shown as `shownPath`. */
export function changePreview(tool: string, args: Record<string, unknown>, absPath: string, shownPath: string): string {
  const now = currentText(absPath);
  if (tool === "write") {
    const content = typeof args.content === "string" ? args.content : JSON.stringify(args.content ?? "");
    const patch = generateUnifiedPatch(shownPath, normalizeToLF(now ?? ""), normalizeToLF(content), CONTEXT_LINES);
    return `${now === undefined ? "(a new file)\n" : ""}${patch}`;
  }
  const prepared = prepareEditArguments(args) as Record<string, unknown>;
  const edits: unknown[] = Array.isArray(prepared.edits) ? prepared.edits : [prepared.edits];
  if (now !== undefined && edits.every(isEdit)) {
    try {
      const { baseContent, newContent } = applyEdits(normalizeToLF(now), edits, shownPath);
      return generateUnifiedPatch(shownPath, baseContent, newContent, CONTEXT_LINES);
    } catch {
      // shown as sent, below
    }
  }
  return edits.map((edit, i) => `edit ${i + 1}, old:\n${isEdit(edit) ? edit.oldText : JSON.stringify(edit)}\nnew:\n${isEdit(edit) ? edit.newText : ""}`).join("\n");
}

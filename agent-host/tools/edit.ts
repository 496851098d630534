/**
 * edit: exact-text replacements in one file (pi's `edits[]` shape), keeping the file's BOM and
 * line endings. The result's details carry a display diff and a unified patch for the UI.
 */
import { Type, type Static } from "@sinclair/typebox";
import { throwIfAborted, type AgentTool } from "../agent/tool";
import { generateDiffString, generateUnifiedPatch } from "./diff";
import { applyEdits, detectLineEnding, normalizeToLF, restoreLineEndings, type Edit } from "./edit-apply";
import { localEditIo, withFileMutationQueue, type EditIo } from "./io";
import { guardedPath, openedWriteCheck, type GuardedOptions } from "./paths";

const replaceEditSchema = Type.Object({
  oldText: Type.String({
    description:
      "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.",
  }),
  newText: Type.String({ description: "Replacement text for this targeted edit." }),
});

export const editSchema = Type.Object({
  path: Type.String({ description: "Path to the file to edit (relative or absolute)" }),
  edits: Type.Array(replaceEditSchema, {
    description:
      "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
  }),
});
export type EditParams = Static<typeof editSchema>;

export interface EditToolDetails {
  /** pi's display diff: `+12 added`, `-12 removed`, ` 12 context`, ` ... ` for skipped lines. */
  diff: string;
  /** Unified patch of the change (LF line endings). */
  patch: string;
  /** First changed line in the new file (1-based). */
  firstChangedLine?: number;
}

export interface EditToolOptions extends GuardedOptions {
  io?: EditIo;
}

const isEdit = (value: unknown): value is Edit =>
  typeof value === "object" && value !== null && !Array.isArray(value) &&
  typeof (value as Edit).oldText === "string" && typeof (value as Edit).newText === "string";

/**
 * Repairs the shapes models send instead of `edits: [...]`, before validation (as pi does): edits
 * as a JSON string, a single edit object, or the older top-level `oldText`/`newText`.
 */
export function prepareEditArguments(input: unknown): unknown {
  if (typeof input !== "object" || input === null) return input;
  const args = { ...(input as Record<string, unknown>) };
  if (typeof args.edits === "string") {
    try {
      const parsed: unknown = JSON.parse(args.edits);
      if (Array.isArray(parsed)) args.edits = parsed;
      else if (isEdit(parsed)) args.edits = [parsed];
    } catch {
      // left as is: validation reports it
    }
  } else if (isEdit(args.edits)) args.edits = [args.edits];
  if (typeof args.oldText !== "string" || typeof args.newText !== "string") return args;
  const { oldText, newText, ...rest } = args;
  return { ...rest, edits: [...(Array.isArray(args.edits) ? args.edits : []), { oldText, newText }] };
}

export function createEditTool(cwd: string, options: EditToolOptions = {}): AgentTool<typeof editSchema, EditToolDetails> {
  const io = options.io ?? localEditIo;
  return {
    name: "edit",
    label: "edit",
    description:
      "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits. Do not include large unchanged regions just to connect distant changes.",
    parameters: editSchema,
    prepareArguments: prepareEditArguments,
    async execute(callId, { path, edits }, signal) {
      if (!Array.isArray(edits) || edits.length === 0) {
        throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
      }
      const absPath = guardedPath(path, cwd, options);
      // Aborts are checked between steps, not raced: the queue stays held until the write settles.
      return withFileMutationQueue(absPath, async () => {
        throwIfAborted(signal);
        try {
          await io.access(absPath);
        } catch (error) {
          throwIfAborted(signal);
          const code = (error as { code?: unknown })?.code;
          throw new Error(`Could not edit file: ${path}. ${code ? `Error code: ${String(code)}` : String(error)}.`);
        }
        // Read and written on the file really opened, judged then: a link flipped after the checks leads elsewhere.
        const opened = openedWriteCheck(options, path, callId);
        const raw = (await io.readFile(absPath, opened)).toString("utf-8");
        throwIfAborted(signal);
        // The model never types the invisible BOM: match without it, write it back.
        const bom = raw.startsWith("\uFEFF") ? "\uFEFF" : "";
        const text = raw.slice(bom.length);
        const ending = detectLineEnding(text);
        const { baseContent, newContent } = applyEdits(normalizeToLF(text), edits, path);
        options.beforeWrite?.(absPath, path, callId);
        await io.writeFile(absPath, bom + restoreLineEndings(newContent, ending), opened);
        throwIfAborted(signal);
        const { diff, firstChangedLine } = generateDiffString(baseContent, newContent);
        return {
          content: [{ type: "text", text: `Successfully replaced ${edits.length} block(s) in ${path}.` }],
          details: { diff, patch: generateUnifiedPatch(path, baseContent, newContent), firstChangedLine },
        };
      });
    },
  };
}

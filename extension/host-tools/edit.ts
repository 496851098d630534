/**
 * editor_edit: changes a document's buffer (a WorkspaceEdit, never the file on disk), guarded by
 * the version or content hash the model read, after the user accepted it in a diff (setting
 * pi.hostTools.reviewEdits).
 */
import { Type } from "@sinclair/typebox";
import * as vscode from "vscode";
import { contentHash, sameHash } from "./document-text";
import { applyOffsetEdits, lspEditsToOffsets, matchReplacements, type LspTextEdit, type OffsetEdit, type TextReplacement } from "./edit-matching";
import type { EditReviewer } from "./edit-review";
import type { SandboxModeSetting } from "../settings";
import { openWorkspaceDocument, resolveFile, workspaceFolderPaths } from "./editor-workspace";
import { defineTool, jsonResult, raceCancellation, throwIfCancelled, type EditorTool } from "./tool";
import { errorText } from "../../shared/error-text";
import { isProtectedPath } from "../../shared/node/sandbox/protected-match";
import { lazySchema, type StaticOf } from "../../shared/protocol/lazy-schema";

const Position = lazySchema(() => Type.Object({ line: Type.Integer({ minimum: 0 }), character: Type.Integer({ minimum: 0 }) }));
const Replacement = lazySchema(() => Type.Object(
  {
    oldText: Type.String({ description: "Exact current text to replace; must occur exactly once in the document." }),
    newText: Type.String({ description: "Text to put in its place." }),
  },
  { additionalProperties: false },
));
const RangeEdit = lazySchema(() => Type.Object(
  {
    range: Type.Object({ start: Position(), end: Position() }, { description: "LSP range, zero-based lines and characters (UTF-16)." }),
    newText: Type.String(),
  },
  { additionalProperties: false },
));

const EditParams = lazySchema(() => Type.Object(
  {
    path: Type.String({ description: "File to edit, relative to the workspace folder or absolute (inside the workspace)." }),
    edits: Type.Array(Type.Union([Replacement(), RangeEdit()]), {
      minItems: 1,
      description:
        "Replacements, each matched against the current text (not one after the other): {oldText, newText} pairs, or LSP TextEdits {range, newText}. They must not overlap; merge nearby changes into one edit.",
    }),
    expectedVersion: Type.Optional(Type.Integer({ description: "The document version editor_read returned; the edit is refused if the buffer changed since." })),
    expectedHash: Type.Optional(Type.String({ description: "The content hash editor_read returned (also works for files read from disk); the edit is refused if the text changed since." })),
  },
  { additionalProperties: false },
));
type EditParams = StaticOf<typeof EditParams>;

export interface EditToolOptions {
  reviewer: EditReviewer;
  /** Show each edit in a diff for the user to accept or reject first. */
  reviewEdits(): boolean;
  /**
   * The agents' sandbox (pi.sandbox.mode). This tool writes from the editor, outside it, whichever
   * agent asks (pi through its bridge, an ACP agent, ours): under `workspace-write` an edit of a
   * protected name (`.git`, `.vscode`, package.json, …) is shown in the diff whatever reviewEdits
   * says, under `read-only` every edit is.
   */
  sandboxMode(): SandboxModeSetting;
}

async function documentFor(uri: vscode.Uri, path: string): Promise<vscode.TextDocument> {
  try {
    return await openWorkspaceDocument(uri, path);
  } catch (error) {
    throw new Error(`Cannot open ${path} in the editor: ${errorText(error)}. editor_edit changes existing text files.`);
  }
}

/** Refuses an edit made for another state of the buffer. */
function checkGuard(document: vscode.TextDocument, path: string, { expectedVersion, expectedHash, edits }: EditParams): void {
  const rereadHint = "Read it again with editor_read and make the edit against the current text.";
  if (expectedVersion !== undefined && expectedVersion !== document.version) {
    throw new Error(`Stale edit refused: ${path} is at version ${document.version} in the editor, but the edit was made for version ${expectedVersion}. ${rereadHint}`);
  }
  const hash = contentHash(document.getText());
  if (expectedHash !== undefined && !sameHash(expectedHash, hash)) {
    throw new Error(`Stale edit refused: the content of ${path} changed (its hash is now ${hash}, the edit was made for ${expectedHash}). ${rereadHint}`);
  }
  if (expectedVersion === undefined && expectedHash === undefined && edits.some((edit) => "range" in edit)) {
    throw new Error("Edits with LSP ranges need expectedVersion or expectedHash (from editor_read), so that they cannot land on changed text.");
  }
}

function offsetsFor(text: string, edits: EditParams["edits"], path: string): OffsetEdit[] {
  const ranged = edits.filter((edit): edit is LspTextEdit => "range" in edit);
  const replacements = edits.filter((edit): edit is TextReplacement => "oldText" in edit);
  if (ranged.length > 0 && replacements.length > 0) throw new Error("Use either {oldText, newText} replacements or LSP TextEdits in one call, not both.");
  return ranged.length > 0 ? lspEditsToOffsets(text, ranged) : matchReplacements(text, replacements, path);
}

async function applyToBuffer(document: vscode.TextDocument, edits: readonly OffsetEdit[]): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  for (const { start, end, newText } of edits) edit.replace(document.uri, new vscode.Range(document.positionAt(start), document.positionAt(end)), newText);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error("VS Code did not apply the edit (the document may be read-only).");
}

export function createEditTool(options: EditToolOptions): EditorTool {
  return defineTool({
    name: "editor_edit",
    label: "Edit in the editor",
    description:
      "Change a file's text in the editor buffer (the tool does not save it to disk; the user does). Give {oldText, newText} replacements (each oldText must match the current text exactly once) or LSP TextEdits with ranges. " +
      "Pass expectedVersion or expectedHash from editor_read so that an edit of text that changed since is refused. The user may be asked to review the change in a diff; " +
      'the result says "accepted" (applied, with the new version and hash) or "rejected" (nothing changed: do not retry the same edit, ask or take another approach).',
    parameters: EditParams,
    async run(args, { token, update }) {
      const file = resolveFile(args.path);
      const document = await raceCancellation(documentFor(file.uri, file.path), token);
      checkGuard(document, file.path, args);
      const before = document.getText();
      const version = document.version;
      const offsets = offsetsFor(before, args.edits, file.path);
      const proposed = applyOffsetEdits(before, offsets);
      if (proposed === before) throw new Error(`The edits do not change ${file.path}.`);

      const sandbox = options.sandboxMode();
      const protectedFile = sandbox !== "full-access" && isProtectedPath(file.uri.fsPath, { workspaces: workspaceFolderPaths() });
      const reviewed = options.reviewEdits() || protectedFile || sandbox === "read-only";
      if (reviewed) {
        update({ content: [{ type: "text", text: `Waiting for the user to review the edit of ${protectedFile ? "the protected file " : ""}${file.path} in the diff editor…` }] });
        const outcome = await options.reviewer.review(file.uri, before, proposed, token, protectedFile);
        if (outcome !== "accepted") {
          const message = outcome === "rejected" ? `The user rejected the edit: ${file.path} is unchanged.` : `The edit of ${file.path} was cancelled before the user decided; nothing changed.`;
          return jsonResult({ status: outcome, path: file.path, message }, true);
        }
      }
      throwIfCancelled(token);
      if (document.isClosed || document.version !== version) {
        throw new Error(`${file.path} changed while the edit was waiting (version ${version} -> ${document.version}); nothing was applied. Read it again and redo the edit.`);
      }
      await applyToBuffer(document, offsets);
      const after = document.getText();
      if (reviewed && !vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === document.uri.toString()))) {
        await vscode.window.showTextDocument(document, { preview: false, preserveFocus: true });
      }
      return jsonResult({
        status: reviewed ? "accepted" : "applied",
        path: file.path,
        version: document.version,
        hash: contentHash(after),
        isDirty: document.isDirty,
        edits: offsets.length,
        message: `${reviewed ? "Accepted by the user and applied" : "Applied"} to the editor buffer of ${file.path}; the tool does not save it (the user or VS Code's auto save does).`,
      });
    },
  });
}

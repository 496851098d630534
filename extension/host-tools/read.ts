/** editor_read: a document as the editor holds it (unsaved changes included), with its version and hash. */
import { Type } from "@sinclair/typebox";
import * as vscode from "vscode";
import { contentHash, readWindow } from "./document-text";
import { loadedWorkspaceDocument, readWorkspaceFile, resolveFile, stampOf } from "./editor-workspace";
import { defineTool, raceCancellation, textResult, type EditorTool } from "./tool";
import { lazySchema } from "../../shared/protocol/lazy-schema";

const ReadParams = lazySchema(() => Type.Object(
  {
    path: Type.String({ description: "File to read, relative to the workspace folder or absolute (inside the workspace)." }),
    offset: Type.Optional(Type.Integer({ minimum: 1, description: "Line number to start from, 1-based (default 1)." })),
    limit: Type.Optional(Type.Integer({ minimum: 1, description: "Number of lines to return (default: up to 2000 lines or 50 KB)." })),
  },
  { additionalProperties: false },
));

/** Reads a closed file from disk as UTF-8 text (the file opened checked, verified-file.ts); refuses folders and binary files. */
async function readFromDisk(uri: vscode.Uri, path: string): Promise<string> {
  const bytes = await readWorkspaceFile(uri, path);
  if (bytes.subarray(0, 8000).includes(0)) throw new Error(`${path} is a binary file; editor_read returns text only.`);
  return new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
}

export function createReadTool(): EditorTool {
  return defineTool({
    name: "editor_read",
    label: "Read from the editor",
    description:
      "Read a file as the editor has it. For a document open in VS Code this is the current buffer, unsaved changes included, with its `version` and content `hash`: pass one of them to editor_edit (expectedVersion or expectedHash) so a stale edit is refused. " +
      "A file that is not open is read from disk (hash only, no version). The first line of the result is JSON metadata (path, source, version, isDirty, languageId, hash, lines shown); the text follows from the second line. " +
      "offset is a 1-based line number; note that the LSP-style editor tools use zero-based lines (line N here is line N-1 there).",
    parameters: ReadParams,
    async run({ path, offset, limit }, { token }) {
      const file = resolveFile(path);
      // A loaded document that does not hold what the file does (verified-file.ts holdsVerified): the file is read instead.
      const loaded = await raceCancellation(loadedWorkspaceDocument(file.uri, file.path), token);
      const document = loaded === "stale" ? undefined : loaded;
      let meta: Record<string, unknown>;
      let text: string;
      if (document) {
        text = document.getText();
        const { path: shown, languageId, version, isDirty, hash, eol } = stampOf(document, file.path);
        meta = { path: shown, source: "editor", version, isDirty, languageId, hash, eol };
      } else {
        text = await raceCancellation(readFromDisk(file.uri, file.path), token);
        meta = { path: file.path, source: "disk", hash: contentHash(text) };
      }
      const window = readWindow(text, offset, limit);
      meta.lines = window.totalLines === 0 ? "empty" : `${window.startLine}-${window.endLine} of ${window.totalLines}`;
      let body = `${JSON.stringify(meta)}\n${window.text}`;
      if (window.nextOffset !== undefined) {
        body += `\n\n[Showing lines ${window.startLine}-${window.endLine} of ${window.totalLines}. Use offset=${window.nextOffset} to continue.]`;
      }
      return textResult(body, { ...meta, startLine: window.startLine, endLine: window.endLine, totalLines: window.totalLines });
    },
  });
}

import * as path from "node:path";
import * as vscode from "vscode";
import type { ImageContent } from "../../../shared/protocol";
import { attachmentLimits, type Mention } from "../../../shared/webview-protocol";
import { fileBlock, folderBlock, problemsBlock, type ContextBlock, type Problem } from "./context-format";
import type { WorkspaceFiles } from "./workspace-files";
import { documentTextForAgent, loadedTextForAgent, notHandedOver, readForAgent, reallyReadable } from "../../host-tools/readable-for-agent";
import { errorText } from "../../../shared/error-text";
import { notificationText } from "../../ui/plain-text";

export const imageMimeTypes: Record<string, ImageAttachmentMime> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };
type ImageAttachmentMime = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/**
 * Turns mentions into context blocks when the message is sent: a file as the editor has it
 * (unsaved changes included) or else as on disk, only the given lines of it; a folder's
 * listing; the editor's selection; the workspace's problems. Image files become images.
 */
export async function resolveMentions(mentions: readonly Mention[], files: WorkspaceFiles): Promise<{ blocks: ContextBlock[]; images: ImageContent[] }> {
  const blocks: ContextBlock[] = [];
  const images: ImageContent[] = [];
  for (const mention of mentions) {
    switch (mention.kind) {
      case "selection":
        blocks.push(...(await selectionBlocks(files)));
        break;
      case "problems":
        blocks.push(problemsBlock(workspaceProblems(files)));
        break;
      case "folder": {
        const uri = mention.path ? await files.resolve(mention.path) : undefined;
        if (uri) blocks.push(folderBlock(files.relative(uri), await files.under(files.relative(uri))));
        break;
      }
      case "file": {
        const uri = mention.path ? await files.resolve(mention.path) : undefined;
        if (!uri) break;
        const mime = imageMimeTypes[path.extname(uri.path).toLowerCase()];
        if (mime && !mention.lines) {
          const image = await readImage(uri, mime).catch((error: unknown) => notAttached(files.relative(uri), error));
          if (image && "attrs" in image) {
            blocks.push(image);
            break;
          }
          if (image) images.push(image);
          else blocks.push({ attrs: { type: "image", path: files.relative(uri), omitted: `larger than ${attachmentLimits.imageBytes / 1024 / 1024} MB` }, body: "" });
          break;
        }
        blocks.push(await fileContext(uri, files.relative(uri), mention.lines));
        break;
      }
    }
  }
  return { blocks, images };
}

/**
 * The file as the editor has it (unsaved changes included) or else as on disk, read through the one
 * door for files handed to an agent (readable-for-agent.ts): a link a command or a repository put
 * at its name, leading outside the workspace or into a hidden secret, is not followed; the block
 * says why, and so does a notice (the user attached it).
 */
async function fileContext(uri: vscode.Uri, relative: string, lines: Mention["lines"]): Promise<ContextBlock> {
  try {
    const open = await loadedTextForAgent(uri, relative);
    if (open !== undefined) return fileBlock(relative, open, lines);
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) return folderBlock(relative, []);
    const bytes = await readForAgent(uri.fsPath, relative);
    if (bytes.subarray(0, 8192).includes(0)) return { attrs: { type: "file", path: relative, omitted: "binary file" }, body: "" };
    return fileBlock(relative, new TextDecoder().decode(bytes), lines);
  } catch (error) {
    return notAttached(relative, error);
  }
}

function notAttached(relative: string, error: unknown): ContextBlock {
  const why = errorText(error);
  void vscode.window.showWarningMessage(`Pi: not attached: ${notificationText(why)}`);
  return { attrs: { type: "file", path: relative, omitted: why }, body: "" };
}

/** The image file as base64 (read as it really is: readable-for-agent.ts), or undefined when it is over the size limit. */
export async function readImage(uri: vscode.Uri, mimeType: ImageAttachmentMime): Promise<(ImageContent & { mimeType: ImageAttachmentMime }) | undefined> {
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > attachmentLimits.imageBytes) return undefined;
  const bytes = await readForAgent(uri.fsPath, vscode.workspace.asRelativePath(uri), attachmentLimits.imageBytes);
  return { type: "image", mimeType, data: Buffer.from(bytes).toString("base64") };
}

async function selectionBlocks(files: WorkspaceFiles): Promise<ContextBlock[]> {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  const selections = editor?.selections.filter((s) => !s.isEmpty) ?? [];
  if (!editor || selections.length === 0) return [{ attrs: { type: "selection", omitted: "no text is selected in the editor" }, body: "" }];
  const where = editor.document.isUntitled ? editor.document.uri.path : files.relative(editor.document.uri);
  if ((await documentTextForAgent(editor.document, where)) === undefined) {
    const why = notHandedOver(where);
    void vscode.window.showWarningMessage(`Pi: ${notificationText(why)}`);
    return [{ attrs: { type: "selection", path: where, omitted: why }, body: "" }];
  }
  return selections.map((s) => ({
    attrs: { type: "selection", path: where, lines: `${s.start.line + 1}-${s.end.line + 1}` },
    body: editor.document.getText(s),
  }));
}

const severities: Record<vscode.DiagnosticSeverity, Problem["severity"]> = {
  [vscode.DiagnosticSeverity.Error]: "error",
  [vscode.DiagnosticSeverity.Warning]: "warning",
  [vscode.DiagnosticSeverity.Information]: "info",
  [vscode.DiagnosticSeverity.Hint]: "hint",
};

/**
 * The workspace's problems for `@problems`, as editor_diagnostics gives them: none of a file whose
 * name is a link out of the workspace or into a hidden secret (reallyReadable), whose checker's
 * message may quote the text it read through the link (a spell checker's "Unknown word").
 */
function workspaceProblems(files: WorkspaceFiles): Problem[] {
  const readable = vscode.languages.getDiagnostics().filter(([uri]) => reallyReadable(uri));
  return readable.flatMap(([uri, diagnostics]) =>
    diagnostics.map((d) => ({
      path: uri.scheme === "file" ? files.relative(uri) : uri.toString(),
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      severity: severities[d.severity],
      message: d.message,
      ...(d.source ? { source: d.source } : {}),
    })),
  );
}

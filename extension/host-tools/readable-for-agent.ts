/**
 * The one door for a file's text that the editor hands an agent on the user's behalf (an
 * `@`-mention, Add to Pi Chat, a dropped file, the selection editor_active reports). VS Code and
 * workspace.fs read by name and follow links, and a sandboxed command can make any workspace file
 * a link (`ln -sfn ~/.aws/credentials notes.md`), as can a cloned repository (`notes.md ->
 * /proc/self/environ`): the extension host, which reads everything its user can, would attach the
 * secret or its own environment. So the file is read as it really is (verified-file.ts): named in
 * a workspace folder, it must really be in one; named outside (the user picked a file there), it
 * must be that file itself, not a link at its name; never in a home secret the sandbox hides, nor
 * in /proc (the sandbox has its own; the host's holds the editor's environment).
 */
import * as vscode from "vscode";
import { decodeAs, hiddenFromAgents, hiddenIn, loadedDocument, workspaceFolderPaths } from "./editor-workspace";
import { holdsVerified, readVerified } from "./verified-file";
import { loadedThroughCommandLink } from "../save-guard/save-guard";
import { isInside, onProcFs, realPathOf } from "../../shared/node/real-path";
import { hiddenSecretOf } from "../../shared/node/sandbox/protected-match";
import { hiddenEnv, realRootsFor } from "./workspace-paths";

/** The bytes of the file at `absPath` as it really is; throws a message saying why not (for the user and the model). */
export function readForAgent(absPath: string, shown: string, max?: number): Promise<Uint8Array> {
  return readVerified(absPath, realRootsFor(absPath, workspaceFolderPaths()), hiddenIn(), shown, max);
}

/**
 * Whether what a language server says about `uri` (a checker's message quotes the text) may go to an
 * agent: the file really lies where readForAgent would read it. Servers read files by name too,
 * through a link at the name, and a diagnostic is filed under the name.
 */
export function reallyReadable(uri: vscode.Uri): boolean {
  if (uri.scheme !== "file") return true;
  let real: string;
  try {
    real = realPathOf(uri.fsPath);
  } catch {
    return false; // gone, or a link loop: nothing to say about it
  }
  const hidden = hiddenIn();
  return realRootsFor(uri.fsPath, workspaceFolderPaths()).some((root) => isInside(root, real)) && !(hidden && hiddenSecretOf(real, hiddenEnv(hidden))) && !onProcFs(real);
}

/**
 * The text of a document VS Code has loaded, if it may go to an agent: its unsaved changes (the
 * user's, while its name does not lead elsewhere), or the text the file really holds (holdsVerified). A document loaded through a link a
 * command planted shows the link's target (VS Code reloads it by name): undefined, not that text.
 */
export async function documentTextForAgent(document: vscode.TextDocument, shown: string): Promise<string | undefined> {
  // Untitled, or another extension's (git:, a diff side): no file to follow, but one of a hidden file by its path is still that file's text.
  if (document.uri.scheme !== "file") return hiddenFromAgents(vscode.Uri.file(document.uri.path)) ? undefined : document.getText();
  // Loaded through a command's link, then typed in: once the link is moved aside, reading the path says nothing of where the text came from.
  if (loadedThroughCommandLink(document.uri)) return undefined;
  const may = await holdsVerified(document, () => readForAgent(document.uri.fsPath, shown), (bytes) => decodeAs(bytes, document));
  return may ? document.getText() : undefined;
}

/** The loaded document of `uri`, if any and if its text may go to an agent (documentTextForAgent). */
export async function loadedTextForAgent(uri: vscode.Uri, shown: string): Promise<string | undefined> {
  const document = loadedDocument(uri);
  return document && document.uri.scheme === "file" ? documentTextForAgent(document, shown) : undefined;
}

/** Why a document's text is not handed to an agent (documentTextForAgent said no), for a notice. */
export function notHandedOver(shown: string): string {
  return `${shown} in the editor is not the workspace file (VS Code loaded it through a link at its name, leading outside the workspace or into a hidden secret); not sent to the agent.`;
}

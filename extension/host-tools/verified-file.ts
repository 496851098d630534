/**
 * A workspace file read as it really is when it is opened. The path's check (workspace-paths.ts)
 * comes before the open, and the model's own job can flip a link in between (`ln -sfn ~/.ssh d`
 * in a loop): the open would follow it out of the workspace, or into a secret the sandbox hides.
 * So the file opened is checked itself: its identity (device, inode) must be that of the real
 * path found after the open, and that path must lie in a workspace folder and not in a hidden
 * secret. Free of vscode (node:fs), so it is unit-tested with real links flipped.
 */
import { constants } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import { onProcFs, resolvesInside } from "../../shared/node/real-path";
import { hiddenSecretOf } from "../../shared/node/sandbox/protected-match";
import { hiddenEnv, type HiddenIn } from "./workspace-paths";

/** The bytes of the file at `absPath`, once it is known to be the workspace file it looks like; throws a message for the model. */
export async function readVerified(absPath: string, realFolders: readonly string[], hiddenIn: HiddenIn | undefined, shown: string, max = MAX_READ_BYTES): Promise<Uint8Array> {
  let handle;
  try {
    // Non-blocking: a FIFO the model made does not hang the editor's extension host.
    handle = await open(absPath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    throw new Error(`${shown} does not exist (neither open in the editor nor on disk).`);
  }
  try {
    const opened = await handle.stat();
    if (opened.isDirectory()) throw new Error(`${shown} is a folder, not a file.`);
    if (!opened.isFile()) throw new Error(`${shown} is not a regular file.`);
    let real: string;
    let now;
    try {
      real = await realpath(absPath);
      now = await stat(real);
    } catch {
      throw moved(shown);
    }
    if (now.dev !== opened.dev || now.ino !== opened.ino) throw moved(shown);
    if (!resolvesInside(realFolders, real)) throw new Elsewhere(`${shown} leads outside the workspace (a link on its way); the editor gives agents only files inside it, or one named outside as itself.`);
    const secret = hiddenIn && hiddenSecretOf(real, hiddenEnv(hiddenIn));
    if (secret) throw new Elsewhere(`${shown} leads into ~/${secret}, which the sandbox hides from the agent; the editor does not give it to agents either.`);
    if (onProcFs(real)) throw new Elsewhere(`${shown} is in /proc (a process as the kernel shows it: the editor's own environment, its open files); the editor does not give it to agents.`);
    return await readAtMost(handle, max, shown);
  } finally {
    await handle.close();
  }
}

/**
 * The most the door reads of a file: VS Code itself gives extensions no document of a file above
 * 50 MB. Before, the whole file was read: a sparse file the model made in an instant (`truncate -s
 * 1G`) took 1 GB of the extension host's memory per editor_read, a few at once enough to end it.
 */
export const MAX_READ_BYTES = 50 * 1024 * 1024;

/** The file's bytes, read in chunks: a file larger than `max` (or one growing past it as it is read) is refused. */
async function readAtMost(handle: import("node:fs/promises").FileHandle, max: number, shown: string): Promise<Uint8Array> {
  const tooLarge = () => new Error(`${shown} is larger than ${max / 1024 / 1024} MB; the editor does not read files that large for an agent (the agent's own read tool can read it in parts).`);
  if ((await handle.stat()).size > max) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, max + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > max) throw tooLarge();
  }
  return Buffer.concat(chunks, total);
}

/** readVerified's refusal of a file that is not where its name says (a link on its way, or replaced while opened). */
export class Elsewhere extends Error {}

const moved = (shown: string) => new Elsewhere(`${shown} changed while it was opened (a link on its way replaced); not read. Try again once nothing changes it.`);

/**
 * The document `open` loads (VS Code's open, which follows whatever links are there by then), used
 * only if it holds the file `read` found (readVerified); throws a message for the model otherwise.
 * Bytes that are not UTF-8 are decoded as the document was (`decodeAs`, its encoding): comparing
 * the file read again with the first read said nothing of the document, and a job flipping a link
 * between a Latin-1 (or UTF-16) workspace file and `~/.ssh/id_ed25519` had a document of the key
 * taken, and kept loaded for the next tool.
 */
export async function verifiedDocument<D extends { getText(): string }>(
  read: () => Promise<Uint8Array>,
  open: () => Promise<D>,
  shown: string,
  decodeAs: (bytes: Uint8Array, document: D) => Promise<string>,
): Promise<D> {
  const verified = await read();
  const document = await open();
  const same = await holdsBytes(document, verified, (bytes) => decodeAs(bytes, document));
  if (!same) throw new Error(`${shown} changed while it was opened (a link on its way replaced); not used. Try again once nothing changes it.`);
  return document;
}

/**
 * Whether a document VS Code has loaded may be used by the tools as it is: one with unsaved changes
 * (the user's, or an edit made on a document checked here) yes, unless `read` finds its name leads
 * elsewhere (then VS Code loaded it from there: a repository's `notes.md -> ~/.ssh/id_ed25519` the
 * user typed in, or a clean document reloaded through a command's link before); any other only
 * while it holds what the file really holds (`read`: readVerified). VS Code loads a document by following the path's
 * links at its own moment and keeps it loaded (an extension's for minutes): the document of a key
 * that verifiedDocument refused stayed in `textDocuments`, and the tools took a loaded document as
 * it was; and a file replaced by a link is loaded again from wherever the link leads.
 */
export async function holdsVerified(document: { getText(): string; isDirty: boolean }, read: () => Promise<Uint8Array>, decodeAs: (bytes: Uint8Array) => Promise<string>): Promise<boolean> {
  if (document.isDirty) return read().then(() => true, (error: unknown) => !(error instanceof Elsewhere));
  return (await fileTextHeld(document, read, decodeAs)) === "holds";
}

/**
 * What a document holds of the file `read` finds (readVerified): its text ("holds"), other text
 * ("differs"), or nothing to say: its name leads elsewhere ("elsewhere"), or no file to compare
 * (missing, too large, not a regular file: "unknown").
 */
export async function fileTextHeld(document: { getText(): string }, read: () => Promise<Uint8Array>, decodeAs: (bytes: Uint8Array) => Promise<string>): Promise<"holds" | "differs" | "elsewhere" | "unknown"> {
  let verified: Uint8Array;
  try {
    verified = await read();
  } catch (error) {
    return error instanceof Elsewhere ? "elsewhere" : "unknown";
  }
  return (await holdsBytes(document, verified, decodeAs)) ? "holds" : "differs";
}

/**
 * Whether the document's text is what `bytes` hold: as UTF-8, else decoded as the document was
 * (another encoding, or a setting's). decodeAs is a round trip to VS Code, which may load the
 * document again meanwhile (through a link at its name): its text must still be the one compared.
 */
async function holdsBytes(document: { getText(): string }, bytes: Uint8Array, decodeAs: (bytes: Uint8Array) => Promise<string>): Promise<boolean> {
  const text = document.getText();
  if (sameText(text, bytes) === true) return true;
  const decoded = await decodeAs(bytes).catch(() => undefined);
  return decoded !== undefined && plain(decoded) === plain(text) && document.getText() === text;
}

/** Whether a document's text is what `bytes` hold (UTF-8, a BOM and line ends aside); undefined when they are not UTF-8 (not comparable). */
export function sameText(text: string, bytes: Uint8Array): boolean | undefined {
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  return plain(text) === plain(decoded);
}

/** Text without a BOM, its line ends LF. */
const plain = (s: string) => s.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");

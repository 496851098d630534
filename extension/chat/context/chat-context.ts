import * as path from "node:path";
import * as vscode from "vscode";
import type { ImageContent } from "../../../shared/protocol";
import type { ImageAttachment, Mention, MentionCandidate, PathKind, ToWebview } from "../../../shared/webview-protocol";
import type { ChatChanges } from "../session-actions";
import { undoneBlock, withContext, type LineRange } from "./context-format";
import { imageMimeTypes, readImage, resolveMentions } from "./context-resolver";
import { WorkspaceFiles } from "./workspace-files";
import { notificationText } from "../../ui/plain-text";
import { errorText } from "../../../shared/error-text";

export interface ChatAttachments {
  mentions: Mention[];
  images?: ImageAttachment[];
}

/**
 * The chat's side of context attachment: `@` completion, attachments offered to the message
 * box ("Add to Pi Chat", dropped files), and the message the model gets when it is sent.
 */
export class ChatContext implements vscode.Disposable {
  readonly files: WorkspaceFiles;
  /** Whether `files` is this chat's own (no shared one was given), to dispose with it. */
  private readonly ownFiles: boolean;
  private ready = false;
  private readonly pending: ChatAttachments[] = [];

  constructor(
    private readonly post: (message: ToWebview) => void,
    private readonly log: vscode.LogOutputChannel,
    files?: WorkspaceFiles,
    /** The session's changes under review: what the user undid is told to the agent with the next message. */
    private readonly changes?: Pick<ChatChanges, "takeUndone">,
  ) {
    this.ownFiles = !files;
    this.files = files ?? new WorkspaceFiles();
  }

  /** The view (re)loaded: attachments offered before it could take them go now. */
  viewReady(): void {
    this.ready = true;
    for (const attachments of this.pending.splice(0)) this.post({ type: "addAttachments", ...attachments });
  }

  /** Adds chips to the message being written. */
  offer(attachments: ChatAttachments): void {
    if (attachments.mentions.length === 0 && !attachments.images?.length) return;
    if (this.ready) this.post({ type: "addAttachments", ...attachments });
    else this.pending.push(attachments);
  }

  /** `@` completion: workspace files and folders matching what was typed after the `@`. */
  candidates(query: string): Promise<MentionCandidate[]> {
    return this.files.search(query).catch((error: unknown) => {
      this.log.debug(`@ completion failed: ${String(error)}`);
      return [];
    });
  }

  /** What each `@` path names (a chip shows only for a file or folder that is there). */
  kinds(paths: readonly string[]): Promise<PathKind[]> {
    return Promise.all(paths.map((p) => this.files.kind(p).catch(() => "none" as const)));
  }

  /** Files and folders as attachments: image files as images, the rest as mentions (with `lines` for a file). */
  async attachmentsFor(uris: readonly vscode.Uri[], lines?: LineRange): Promise<ChatAttachments> {
    const mentions: Mention[] = [];
    const images: ImageAttachment[] = [];
    for (const uri of uris) {
      try {
        const stat = await vscode.workspace.fs.stat(uri);
        const relative = this.files.relative(uri);
        const mime = imageMimeTypes[path.extname(uri.path).toLowerCase()];
        if (stat.type & vscode.FileType.Directory) mentions.push({ kind: "folder", path: relative });
        else if (mime && !lines) {
          // null: not read as it really is (a link on its way: readable-for-agent.ts), said by readImage's error.
          const image = await readImage(uri, mime).catch((error: unknown) => {
            void vscode.window.showWarningMessage(`Pi: not attached: ${notificationText(errorText(error))}`);
            return null;
          });
          if (image) images.push({ name: path.basename(uri.path), mimeType: image.mimeType, data: image.data });
          else if (image === undefined) void vscode.window.showWarningMessage(`Pi: ${notificationText(relative)} is too large to attach as an image.`);
        } else mentions.push(lines ? { kind: "file", path: relative, lines } : { kind: "file", path: relative });
      } catch (error) {
        this.log.debug(`Could not attach ${uri.toString()}: ${String(error)}`);
      }
    }
    return images.length ? { mentions, images } : { mentions };
  }

  /** Files dropped on the message box (URIs from the explorer or editor tabs). */
  async drop(uris: readonly string[]): Promise<void> {
    const parsed = uris.flatMap((u) => {
      try {
        return [vscode.Uri.parse(u, true)];
      } catch {
        return [];
      }
    });
    this.offer(await this.attachmentsFor(parsed));
  }

  /**
   * The message the agent gets: the text with the mentions' context after it, and the images; and,
   * when the user undid some of the agent's changes since its last message, which files (else the
   * agent goes on from files that are no longer as it left them).
   */
  async compose(text: string, mentions: readonly Mention[] = [], images: readonly ImageAttachment[] = []): Promise<{ message: string; images?: ImageContent[] }> {
    const resolved = mentions.length ? await resolveMentions(mentions, this.files) : { blocks: [], images: [] };
    const all: ImageContent[] = [...images.map((i) => ({ type: "image" as const, mimeType: i.mimeType, data: i.data })), ...resolved.images];
    const undone = this.changes?.takeUndone().map((file) => this.files.relative(vscode.Uri.file(file))) ?? [];
    const message = withContext(text, undone.length ? [...resolved.blocks, undoneBlock(undone)] : resolved.blocks);
    return all.length ? { message, images: all } : { message };
  }

  dispose(): void {
    if (this.ownFiles) this.files.dispose();
  }
}

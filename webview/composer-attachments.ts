import { attachmentLimits, type FromWebview, type ImageAttachment, type Mention, type PathKind } from "../shared/webview-protocol";
import { AttachmentsView, droppedUris, readImages, type Chip } from "./attachments-view";
import { chipSpans, mentionToken, parseMentions, removeSpan, uniqueMentions } from "./mentions";

export interface AttachmentHost {
  text(): string;
  /** Where the caret is in the text. */
  caret(): number;
  /** What each `@` path names in the workspace. */
  kinds(paths: string[]): Promise<PathKind[]>;
  /** Replaces the box's text (the caret goes to the end). */
  setText(text: string): void;
  post(message: FromWebview): void;
}

/**
 * What goes with the message beside its text: the chips of its `@` mentions, and images pasted
 * or dropped on the box. Files dropped from the explorer become `@` mentions in the text.
 */
export class ComposerAttachments {
  private images: ImageAttachment[] = [];
  private note = "";
  private noteTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly view: AttachmentsView;
  /** What the extension said each `@` path names (undefined while asked); forgotten when a message goes. */
  private readonly known = new Map<string, PathKind | undefined>();

  constructor(
    container: HTMLElement,
    prompt: HTMLElement,
    dropTarget: HTMLElement,
    private readonly host: AttachmentHost,
  ) {
    this.view = new AttachmentsView(container, (chip) => this.remove(chip));
    prompt.addEventListener("paste", (event: ClipboardEvent) => {
      const files = Array.from(event.clipboardData?.files ?? []).filter((f) => f.type.startsWith("image/"));
      if (files.length === 0) return;
      event.preventDefault();
      void this.addImageFiles(files);
    });
    dropTarget.addEventListener("dragover", (event: DragEvent) => {
      if (!event.dataTransfer) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
    });
    dropTarget.addEventListener("drop", (event: DragEvent) => {
      const data = event.dataTransfer;
      if (!data) return;
      event.preventDefault();
      const uris = droppedUris(data);
      if (uris.length > 0) this.host.post({ type: "dropUris", uris: uris.slice(0, 100) });
      else void this.addImageFiles(Array.from(data.files));
    });
  }

  /**
   * The chips again, after the text changed: one per mention whose file or folder is there (each
   * path asked once). The word the caret ends is still being typed: a chip only once it names a
   * file (`@src/` on the way to `@src/main.ts` makes none, nor does `@src/mai`).
   */
  refresh(): void {
    const text = this.host.text();
    const caret = this.host.caret();
    const spans = parseMentions(text);
    this.ask(spans.flatMap((s) => (s.mention.path !== undefined && !this.known.has(s.mention.path) ? [s.mention.path] : [])));
    this.view.render(chipSpans(spans, text, caret, (p) => this.known.get(p)), this.images, this.note);
  }

  private ask(paths: string[]): void {
    // A path longer than any the extension takes names nothing (asked with the others, it would fail them all).
    for (const p of paths) if (p.length > attachmentLimits.mentionPath) this.known.set(p, "none");
    const unique = [...new Set(paths.filter((p) => p.length <= attachmentLimits.mentionPath))].slice(0, attachmentLimits.mentions);
    if (unique.length === 0) return;
    for (const p of unique) this.known.set(p, undefined);
    this.host.kinds(unique).then(
      (kinds) => {
        unique.forEach((p, i) => this.known.set(p, kinds[i] ?? "none"));
        this.refresh();
      },
      () => unique.forEach((p) => this.known.delete(p)),
    );
  }

  /** Attachments from the extension ("Add to Pi Chat", dropped files): mentions join the text. */
  add(mentions: readonly Mention[], images: readonly ImageAttachment[] = []): void {
    const text = this.host.text();
    const present = new Set(parseMentions(text).map((s) => mentionToken(s.mention)));
    const tokens = mentions.map(mentionToken).filter((t) => !present.has(t));
    if (tokens.length > 0) this.host.setText(`${text.replace(/\s+$/, "")}${text.trim() ? " " : ""}${tokens.join(" ")} `);
    this.addImages(images, []);
  }

  /** Backspace at the start of the box: the last chip goes. */
  removeLast(): boolean {
    if (this.images.length > 0) this.remove({ kind: "image", index: this.images.length - 1 });
    else {
      const spans = parseMentions(this.host.text());
      if (spans.length === 0) return false;
      this.remove({ kind: "mention", index: spans.length - 1 });
    }
    return true;
  }

  /** What goes with the message; the images are cleared (the text is the composer's). */
  take(text: string): { mentions?: Mention[]; images?: ImageAttachment[] } {
    const mentions = uniqueMentions(parseMentions(text).map((s) => s.mention)).slice(0, attachmentLimits.mentions);
    const images = this.images;
    this.images = [];
    this.known.clear();
    this.setNote("");
    return { ...(mentions.length ? { mentions } : {}), ...(images.length ? { images } : {}) };
  }

  get imageCount(): number {
    return this.images.length;
  }

  private remove(chip: Chip): void {
    if (chip.kind === "image") {
      this.images = this.images.filter((_, i) => i !== chip.index);
      return this.refresh();
    }
    const text = this.host.text();
    const span = parseMentions(text)[chip.index];
    if (span) this.host.setText(removeSpan(text, span.start, span.end));
  }

  private async addImageFiles(files: File[]): Promise<void> {
    const { images, skipped } = await readImages(files, attachmentLimits.images - this.images.length);
    this.addImages(images, skipped);
  }

  private addImages(images: readonly ImageAttachment[], skipped: string[]): void {
    const room = attachmentLimits.images - this.images.length;
    if (images.length > room) skipped.push(`at most ${attachmentLimits.images} images`);
    this.images.push(...images.slice(0, Math.max(0, room)));
    this.setNote(skipped.length ? `Not attached: ${skipped.join("; ")}` : "");
  }

  private setNote(note: string): void {
    this.note = note;
    clearTimeout(this.noteTimer);
    if (note) this.noteTimer = setTimeout(() => this.setNote(""), 8000);
    this.refresh();
  }
}


import { attachmentLimits, type ImageAttachment, type Mention } from "../shared/webview-protocol";
import { h, icon } from "./dom";
import { mentionLabel, type MentionSpan } from "./mentions";

const imageTypes = new Set<string>(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export interface Chip {
  /** A mention written in the text (removing it removes the token), or an attached image. */
  kind: "mention" | "image";
  index: number;
}

/**
 * The chips above the message box: one per `@` mention of the text and per attached image,
 * each with a remove button.
 */
export class AttachmentsView {
  constructor(
    private readonly container: HTMLElement,
    private readonly onRemove: (chip: Chip) => void,
  ) {}

  /** `spans` with their index among the text's mentions (the one a chip's remove button takes out). */
  render(spans: readonly (MentionSpan & { index: number })[], images: readonly ImageAttachment[], note = ""): void {
    const chips = [
      ...spans.map((span) => this.chip({ kind: "mention", index: span.index }, mentionIcon(span.mention), mentionLabel(span.mention), mentionTitle(span.mention))),
      ...images.map((image, index) =>
        this.chip({ kind: "image", index }, h("img", { class: "chip-thumb", src: `data:${image.mimeType};base64,${image.data}`, alt: "" }), image.name || "image", image.name || "Pasted image"),
      ),
    ];
    this.container.replaceChildren(...chips, ...(note ? [h("span", { class: "chip-note", role: "status" }, note)] : []));
    this.container.hidden = chips.length === 0 && !note;
  }

  private chip(chip: Chip, leading: HTMLElement, label: string, title: string): HTMLElement {
    const remove = h("button", { type: "button", class: "chip-remove", "aria-label": `Remove ${title}`, title: "Remove" }, icon("close"));
    remove.addEventListener("click", () => this.onRemove(chip));
    return h("span", { class: "chip", "data-kind": chip.kind, title, role: "listitem" }, leading, h("span", { class: "chip-label" }, label), remove);
  }
}

function mentionIcon(mention: Mention): HTMLElement {
  const name = { file: "file", folder: "folder", selection: "selection", problems: "warning" }[mention.kind];
  return icon(name);
}

function mentionTitle(mention: Mention): string {
  if (mention.kind === "selection") return "The selection in the editor (when sent)";
  if (mention.kind === "problems") return "The workspace's problems (when sent)";
  const lines = mention.lines ? ` lines ${mention.lines.start}-${mention.lines.end}` : "";
  return `${mention.path}${mention.kind === "folder" ? "/" : ""}${lines}`;
}

/** Image files of a paste or drop, read as base64; what could not be taken is described in `skipped`. */
export async function readImages(files: readonly File[], room: number): Promise<{ images: ImageAttachment[]; skipped: string[] }> {
  const images: ImageAttachment[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    if (!imageTypes.has(file.type)) continue;
    if (images.length >= room) skipped.push(`${file.name || "image"}: at most ${attachmentLimits.images} images`);
    else if (file.size > attachmentLimits.imageBytes) skipped.push(`${file.name || "image"}: larger than ${attachmentLimits.imageBytes / 1024 / 1024} MB`);
    else images.push({ name: file.name || "pasted image", mimeType: file.type as ImageAttachment["mimeType"], data: await base64(file) });
  }
  return { images, skipped };
}

function base64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error ?? new Error("could not read the image"));
    reader.readAsDataURL(file);
  });
}

/** URIs dragged from VS Code's explorer or editor tabs (`text/uri-list` or its own list type). */
export function droppedUris(data: DataTransfer): string[] {
  const code = data.getData("application/vnd.code.uri-list");
  const raw = code || data.getData("text/uri-list");
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed)) return parsed.filter((u): u is string => typeof u === "string");
  } catch {
    // Not JSON: one URI a line.
  }
  return raw.split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith("#"));
}

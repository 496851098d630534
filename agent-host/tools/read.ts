/**
 * read: a text file (a window of it with offset/limit, cut to the output limits with a notice
 * saying how to continue) or an image (sent as an attachment). Files that are neither are
 * refused instead of being sent as mojibake.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { ImageContent, TextContent } from "../ai/types";
import type { AgentTool } from "../agent/tool";
import { detectImageMimeType, toInlineImage } from "./image";
import { abortable, localReadIo, type ReadIo } from "./io";
import { openedCheck, resolveReadPath, type GuardedOptions } from "./paths";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead, type TruncationResult } from "./truncate";

export const readSchema = Type.Object({
  path: Type.String({ description: "Path to the file to read (relative or absolute)" }),
  offset: Type.Optional(Type.Number({ description: "Line number to start reading from (1-indexed)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of lines to read" })),
});
export type ReadParams = Static<typeof readSchema>;

export interface ReadToolDetails {
  truncation?: TruncationResult;
}

export interface ReadToolOptions extends GuardedOptions {
  io?: ReadIo;
}

/** Bytes looked at for NUL bytes when deciding whether a file is text (as git does). */
const BINARY_SNIFF_BYTES = 8000;

export function createReadTool(cwd: string, options: ReadToolOptions = {}): AgentTool<typeof readSchema, ReadToolDetails | undefined> {
  const io = options.io ?? localReadIo;
  return {
    name: "read",
    label: "read",
    description: `Read the contents of a file. Supports text files and images (jpg, png, gif, webp, bmp). Images are sent as attachments. For text files, output is truncated to ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.`,
    parameters: readSchema,
    execute: (_id, params, signal) =>
      abortable(signal, async () => {
        const absPath = await resolveReadPath(params.path, cwd, io.exists);
        options.guard?.(absPath, params.path);
        // Judged again on what was really opened: a link flipped after the check leads elsewhere.
        const bytes = await io.readFile(absPath, openedCheck(options, params.path));
        const mimeType = detectImageMimeType(bytes);
        if (mimeType) return readImage(bytes, mimeType);
        const text = decodeText(bytes);
        if (text === undefined) {
          throw new Error(
            `Cannot read ${params.path}: it is a binary file (${formatSize(bytes.length)}), not text or a supported image. Use bash to inspect it (e.g. file, xxd, strings).`,
          );
        }
        return readText(text, params);
      }),
  };
}

function readImage(bytes: Buffer, mimeType: Parameters<typeof toInlineImage>[1]) {
  const image = toInlineImage(bytes, mimeType);
  if (!image.ok) return { content: [{ type: "text", text: `Read image file [${mimeType}]\n${image.message}` } as TextContent] };
  const note = [`Read image file [${image.mimeType}]`, ...image.hints].join("\n");
  const content: (TextContent | ImageContent)[] = [
    { type: "text", text: note },
    { type: "image", data: image.data, mimeType: image.mimeType },
  ];
  return { content };
}

/** UTF-8 (or UTF-16 with a byte order mark) text; undefined for binary data. */
function decodeText(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString("utf16le");
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1)));
    return swapped.swap16().toString("utf16le");
  }
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
  return bytes.toString("utf-8");
}

function readText(text: string, { path, offset, limit }: ReadParams) {
  const allLines = text.split("\n");
  const start = offset ? Math.max(0, offset - 1) : 0;
  const firstShown = start + 1;
  if (start >= allLines.length) throw new Error(`Offset ${offset} is beyond end of file (${allLines.length} lines total)`);

  const end = limit !== undefined ? Math.min(start + limit, allLines.length) : allLines.length;
  const truncation = truncateHead(allLines.slice(start, end).join("\n"));
  const reply = (out: string, details?: ReadToolDetails) => ({ content: [{ type: "text", text: out } as TextContent], details });

  if (truncation.firstLineExceedsLimit) {
    const size = formatSize(Buffer.byteLength(allLines[start], "utf-8"));
    return reply(
      `[Line ${firstShown} is ${size}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${firstShown}p' ${path} | head -c ${DEFAULT_MAX_BYTES}]`,
      { truncation },
    );
  }
  if (truncation.truncated) {
    const lastShown = firstShown + truncation.outputLines - 1;
    const limitNote = truncation.truncatedBy === "lines" ? "" : ` (${formatSize(DEFAULT_MAX_BYTES)} limit)`;
    return reply(
      `${truncation.content}\n\n[Showing lines ${firstShown}-${lastShown} of ${allLines.length}${limitNote}. Use offset=${lastShown + 1} to continue.]`,
      { truncation },
    );
  }
  if (end < allLines.length) {
    return reply(`${truncation.content}\n\n[${allLines.length - end} more lines in file. Use offset=${end + 1} to continue.]`);
  }
  return reply(truncation.content);
}

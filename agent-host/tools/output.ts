/**
 * Streaming command output with bounded memory: keeps a decoded tail big enough for the tail
 * truncation, counts lines and bytes of everything, and, once the output is over the limits,
 * writes the full raw output to a temp file whose path the tool reports.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateTail, type TruncationResult } from "./truncate";
import { PRIVATE_FILE_MODE } from "../../shared/node/private-files";

export interface OutputSnapshot {
  content: string;
  truncation: TruncationResult;
  /** Set once the output went over the limits. */
  fullOutputPath?: string;
}

export interface OutputCollectorOptions {
  maxLines?: number;
  maxBytes?: number;
  /** Temp file name prefix ("pi-bash" → /tmp/pi-bash-<hex>.log). */
  tempFilePrefix?: string;
  /** Where temp files go (default: the OS temp dir). */
  tempDir?: string;
}

export class OutputCollector {
  private readonly maxLines: number;
  private readonly maxBytes: number;
  private readonly decoder = new TextDecoder();
  private tail = "";
  /** Whether `tail` starts at the start of a line (false once trimmed mid-line). */
  private tailAtLineStart = true;
  private pending: Buffer[] = [];
  private rawBytes = 0;
  private bytes = 0;
  private newlines = 0;
  private openLine = false;
  private currentLineBytes = 0;
  private file?: WriteStream;
  private filePath?: string;
  private fileError?: Error;

  constructor(private readonly options: OutputCollectorOptions = {}) {
    this.maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  append(chunk: Buffer): void {
    this.rawBytes += chunk.length;
    this.addText(this.decoder.decode(chunk, { stream: true }));
    if (this.file || this.overLimits()) {
      this.openFile();
      this.file?.write(chunk);
    } else this.pending.push(chunk);
  }

  /** Flushes the decoder; call once the process is done. */
  finish(): void {
    this.addText(this.decoder.decode());
    if (this.overLimits()) this.openFile();
  }

  get totalLines(): number {
    return this.newlines + (this.openLine ? 1 : 0);
  }

  /** Bytes of the last (possibly unfinished) line. */
  get lastLineBytes(): number {
    return this.currentLineBytes;
  }

  snapshot(): OutputSnapshot {
    let text = this.tail;
    if (!this.tailAtLineStart) {
      const nl = text.indexOf("\n");
      if (nl !== -1) text = text.slice(nl + 1);
    }
    const tailCut = truncateTail(text, { maxLines: this.maxLines, maxBytes: this.maxBytes });
    const truncated = this.overLimits();
    if (truncated) this.openFile();
    const truncation: TruncationResult = {
      ...tailCut,
      truncated,
      truncatedBy: truncated ? (tailCut.truncatedBy ?? (this.bytes > this.maxBytes ? "bytes" : "lines")) : null,
      totalLines: this.totalLines,
      totalBytes: this.bytes,
    };
    return { content: tailCut.content, truncation, fullOutputPath: this.filePath };
  }

  /** Closes the temp file (if any) once everything is written. */
  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    if (!file) return;
    await new Promise<void>((resolve) => file.end(resolve));
    if (this.fileError) throw this.fileError;
  }

  private overLimits(): boolean {
    return this.rawBytes > this.maxBytes || this.bytes > this.maxBytes || this.totalLines > this.maxLines;
  }

  private openFile(): void {
    if (this.filePath) return;
    const dir = this.options.tempDir ?? tmpdir();
    this.filePath = join(dir, `${this.options.tempFilePrefix ?? "pi-output"}-${randomBytes(8).toString("hex")}.log`);
    // Private (0600), and never through a name someone else placed in the shared temp folder.
    this.file = createWriteStream(this.filePath, { flags: "wx", mode: PRIVATE_FILE_MODE });
    this.file.on("error", (error) => (this.fileError = error));
    for (const chunk of this.pending) this.file.write(chunk);
    this.pending = [];
  }

  private addText(text: string): void {
    if (!text) return;
    const size = Buffer.byteLength(text, "utf-8");
    this.bytes += size;
    this.tail += text;
    // Keep about twice what a snapshot shows; trim in big steps so appends stay cheap.
    if (this.tail.length > this.maxBytes * 4) this.trimTail();
    const last = text.lastIndexOf("\n");
    if (last === -1) {
      this.currentLineBytes += size;
      this.openLine = true;
      return;
    }
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.newlines++;
    const rest = text.slice(last + 1);
    this.currentLineBytes = Buffer.byteLength(rest, "utf-8");
    this.openLine = rest.length > 0;
  }

  private trimTail(): void {
    const buf = Buffer.from(this.tail, "utf-8");
    const keep = this.maxBytes * 2;
    if (buf.length <= keep) return;
    let start = buf.length - keep;
    while (start < buf.length && (buf[start] & 0xc0) === 0x80) start++;
    this.tailAtLineStart = buf[start - 1] === 0x0a;
    this.tail = buf.subarray(start).toString("utf-8");
  }
}

/**
 * A script's result as the model reads it (Pi's docs/codemode.md): a `Script completed` or
 * `Script failed` header with the wall time, then the output items in order (with more than one
 * text item, each starts with `==> text N/M <==`), the console lines in one `<console_output>`
 * block, and for a failure `Script error:` with the error and the calls made before it. Text over
 * `max_output_tokens` keeps its start and end, the whole saved to a temporary file; each image is
 * saved to a temporary file named before it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { join } from "node:path";
import type { ImageContent, TextContent } from "../../ai/types";
import type { OutputItem, ScriptFailure } from "./protocol";

export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
const CHARS_PER_TOKEN = 4;

type Item = TextContent | ImageContent;

export interface CallRecord {
  name: string;
  status: "running" | "ok" | "error" | "cancelled";
}

/** Writes a temporary file readable by its owner only; its path, or an Error. */
function saveTemp(extension: string, data: string | Buffer): string | Error {
  try {
    const file = join(mkdtempSync(join(os.tmpdir(), "pi-codemode-")), `output${extension}`);
    writeFileSync(file, data, { mode: 0o600 });
    return file;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function layOut(output: readonly OutputItem[], value: string | undefined): Item[] {
  const all: OutputItem[] = value === undefined ? [...output] : [...output, { type: "text", text: value }];
  const total = all.filter((item) => item.type === "text" && !item.console).length;
  const items: Item[] = [];
  const consoleLines: string[] = [];
  let index = 0;
  for (const item of all) {
    if (item.type === "image") items.push({ type: "image", data: item.data, mimeType: item.mimeType });
    else if (item.console) consoleLines.push(item.text);
    else items.push({ type: "text", text: total > 1 ? `==> text ${++index}/${total} <==\n${item.text}` : item.text });
  }
  if (consoleLines.length > 0) items.push({ type: "text", text: `<console_output>\n${consoleLines.join("\n")}\n</console_output>` });
  return items;
}

/** Adjacent text items as one, each part starting on its own line. */
function joinText(items: readonly Item[]): Item[] {
  const joined: Item[] = [];
  let parts: string[] = [];
  let last = "";
  const flush = (): void => {
    if (parts.length > 0) joined.push({ type: "text", text: parts.join("") });
    parts = [];
    last = "";
  };
  for (const item of items) {
    if (item.type !== "text") {
      flush();
      joined.push(item);
      continue;
    }
    if (last !== "" && !last.endsWith("\n")) parts.push("\n");
    parts.push(item.text);
    if (item.text !== "") last = item.text;
  }
  flush();
  return joined;
}

function truncate(items: Item[], maxTokens: number): Item[] {
  const texts = items.filter((item): item is TextContent => item.type === "text").map((item) => item.text);
  const combined = texts.join("\n");
  const budget = maxTokens * CHARS_PER_TOKEN;
  if (texts.length === 0 || combined.length <= budget) return items;
  const head = Math.floor(budget / 2);
  const tail = budget - head;
  const removed = combined.length - head - tail;
  const saved = saveTemp(".txt", combined);
  const text = `Warning: truncated output (original token count: ${Math.ceil(combined.length / CHARS_PER_TOKEN)})\nTotal output lines: ${combined.split("\n").length}\n\n${combined.slice(0, head)}…${Math.ceil(removed / CHARS_PER_TOKEN)} tokens truncated…${tail > 0 ? combined.slice(-tail) : ""}${typeof saved === "string" ? `\n\n[Full output: ${saved} (read with offset/limit)]` : `\n\n[Could not save the full output: ${saved.message}]`}`;
  return [{ type: "text", text }, ...items.filter((item) => item.type === "image")];
}

const IMAGE_EXTENSIONS: Record<string, string> = { "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp" };

function saveImages(items: readonly Item[]): Item[] {
  const labels = new Map<string, string>();
  return items.flatMap((item) => {
    if (item.type !== "image") return [item];
    let label = labels.get(item.data);
    if (label === undefined) {
      const bytes = Buffer.from(item.data, "base64");
      const kind = `${item.mimeType}, ${bytes.length} bytes`;
      const saved = saveTemp(IMAGE_EXTENSIONS[item.mimeType] ?? ".bin", bytes);
      label = typeof saved === "string" ? `[Image saved to ${saved} (${kind})]` : `[Image (${kind}) could not be saved: ${saved.message}]`;
      labels.set(item.data, label);
    }
    return [{ type: "text", text: label } as Item, item];
  });
}

function failureText(error: ScriptFailure, calls: readonly CallRecord[]): string {
  const head = error.kind === "script" ? error.message : error.kind === "timeout" ? `Script timed out: ${error.message}` : error.kind === "aborted" ? `Script aborted: ${error.message}` : `Script sandbox failed: ${error.message}`;
  const summary = calls.length === 0 ? "No tool calls were made." : `Tool calls made before the failure (they are not undone): ${calls.map((c) => `${c.name} (${c.status})`).join(", ")}`;
  return `Script error:\n${head}\n\n${summary}`;
}

export interface Outcome {
  ok: boolean;
  output: readonly OutputItem[];
  value?: string;
  error?: ScriptFailure;
  calls: readonly CallRecord[];
  wallMs: number;
  maxOutputTokens?: number;
}

/** The codemode tool's content for the model. */
export function resultContent(outcome: Outcome): Item[] {
  const items = layOut(outcome.output, outcome.ok ? outcome.value : undefined);
  if (!outcome.ok && outcome.error) items.push({ type: "text", text: failureText(outcome.error, outcome.calls) });
  const body = joinText(saveImages(truncate(joinText(items), outcome.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS)));
  const header = `${outcome.ok ? "Script completed" : "Script failed"}\nWall time ${(outcome.wallMs / 1000).toFixed(1)} seconds\nOutput:\n`;
  return [{ type: "text", text: header }, ...body];
}

// The 1 MB tool call of issue 31 through our extension in the editor: the model writes one file
// through `write`, its arguments in 20-character deltas; the extension host's CPU time (from
// /proc, the code-server's extension host process) from the prompt to the card done, per 100 KB
// of arguments, and the time from the model's last byte to the card done. The longest stall of
// a timer beside ours is measured inside the extension host by the real-editor test
// (test/vscode/suite/chat-big-call.test.ts), which a benchmark outside it cannot do.
import * as fs from "node:fs";
import * as path from "node:path";
import type { FrameLocator } from "playwright-core";
import type { BenchLlm } from "../lib/llm";
import { cpuMs } from "./processes";

export interface BigCallFigures {
  cpuPer100KB: number;
  lastByteToDoneMs: number;
}

export async function bigCall(o: { chat: FrameLocator; llm: BenchLlm; extensionHost: number; workspace: string; prompt(text: string): Promise<void>; until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs?: number): Promise<T> }): Promise<BigCallFigures> {
  const line = 'const s = "quoted \\\\ path\\tand tab", café = `${s}`; // ünïcödé\n';
  const content = line.repeat(Math.ceil((1024 * 1024) / Buffer.byteLength(line)));
  const args = { path: "bench-1mb.txt", content };
  const bytes = Buffer.byteLength(JSON.stringify(args));
  o.llm.script([{ toolCall: { name: "write", arguments: args, argumentDelta: 20 } }, { text: ["Written."] }]);
  const done = o.chat.locator(".item-tool[data-tool='write'][data-status='done']");
  const before = await done.count();
  o.llm.reset();
  const cpu0 = cpuMs(o.extensionHost);
  await o.prompt("write the big file");
  await o.until("the 1 MB write's card done", async () => ((await done.count()) > before ? true : undefined), 300_000);
  const doneAt = performance.now();
  const cpu = cpuMs(o.extensionHost) - cpu0;
  const lastByte = o.llm.stats.finishedAt[0] ?? doneAt;
  fs.rmSync(path.join(o.workspace, "bench-1mb.txt"), { force: true });
  return { cpuPer100KB: cpu / (bytes / 102_400), lastByteToDoneMs: doneAt - lastByte };
}

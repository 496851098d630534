/**
 * A Pi extension (built to dist/pi-editor-bridge.mjs, never part of the VS Code extension's own
 * bundle): the editor loads it with `-e` into pi and other Pi-compatible agents it launches, so
 * that an agent without the host-tool protocol (upstream pi has no set_host_tools) gets the
 * editor's tools all the same (#35). It registers each tool the editor declares and runs it by
 * calling back to the editor over the loopback channel the handoff file names (bridge-protocol.ts).
 *
 * The handoff file (address, token, tool definitions) is read and deleted here, while pi loads
 * its extensions, before any tool can run: a process pi's bash starts later finds neither the file
 * nor the token in its environment (docs/trust-model.md). The tools are registered before the
 * first run, and only when the editor says the agent did not take them through set_host_tools
 * (mode "bridge"), so that the model sees each tool once.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import { StringDecoder } from "node:string_decoder";
import { parseForeignJson } from "../../shared/foreign-json";
import type { ToolResult } from "../../shared/protocol";
import { checkHandoff, checkLine, EDITOR_BRIDGE_ENV, MAX_LINE_BYTES, type BridgeHandoff } from "./bridge-protocol";
import { errorText } from "../../shared/error-text";

/** The parts of Pi's ExtensionAPI used here (structural: pi is not a dependency). */
interface PiToolDefinition {
  name: string;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
  execute(toolCallId: string, params: unknown, signal: AbortSignal | undefined, onUpdate: ((partial: ToolResult) => void) | undefined): Promise<ToolResult & { details: unknown }>;
}
interface PiExtensionApi {
  registerTool(tool: PiToolDefinition): void;
  on(event: "before_agent_start", handler: () => Promise<undefined>): void;
  on(event: "session_start", handler: () => undefined): void;
}

const say = (text: string): void => void process.stderr.write(`pi-editor-bridge: ${text}\n`);

/**
 * Where the handoff is kept once read: pi builds a new extension runtime (and runs this factory
 * again) when it replaces the session (new_session, fork), and the file is gone by then. Per
 * process, as the token itself is.
 */
const kept = Symbol.for("pi-vscode.editor-bridge.handoff");
type Keeper = { [kept]?: BridgeHandoff };

/** The handoff, read once and deleted (whatever it held); undefined when there is none or it is unusable. */
function takeHandoff(): BridgeHandoff | undefined {
  const keeper = globalThis as Keeper;
  if (keeper[kept]) return keeper[kept];
  const file = process.env[EDITOR_BRIDGE_ENV];
  if (!file) return undefined;
  delete process.env[EDITOR_BRIDGE_ENV]; // nothing for the processes pi starts to follow
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    say(`cannot read the handoff: ${errorText(error)}`);
    return undefined;
  } finally {
    fs.rmSync(file, { force: true });
  }
  const parsed = parseForeignJson(text);
  const handoff = parsed.ok ? checkHandoff(parsed.value) : parsed.error;
  if (typeof handoff === "string") {
    say(`the handoff is not usable (${handoff}); no editor tools`);
    return undefined;
  }
  keeper[kept] = handoff;
  return handoff;
}

interface Exchange {
  status: number;
  /** Each complete line of the body, as it arrives. */
  lines: AsyncIterable<string>;
}

/** One request on the channel; the response's lines stream (bounded each by MAX_LINE_BYTES). */
function exchange(handoff: BridgeHandoff, method: string, route: string, body: unknown, signal?: AbortSignal): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(`${handoff.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${handoff.token}`, ...(payload ? { "content-type": "application/json", "content-length": String(payload.length) } : {}) },
      ...(signal ? { signal } : {}),
    });
    req.on("error", reject);
    req.on("response", (res) => resolve({ status: res.statusCode ?? 0, lines: linesOf(res) }));
    req.end(payload);
  });
}

/** Lines of a byte stream: characters split across chunks decoded whole; only each new chunk is searched for newlines. */
async function* linesOf(stream: AsyncIterable<Buffer>): AsyncIterable<string> {
  const decoder = new StringDecoder("utf8");
  let parts: string[] = [];
  let length = 0;
  for await (const chunk of stream) {
    let text = decoder.write(chunk);
    let newline: number;
    while ((newline = text.indexOf("\n")) >= 0) {
      parts.push(text.slice(0, newline));
      yield parts.join("");
      parts = [];
      length = 0;
      text = text.slice(newline + 1);
    }
    parts.push(text);
    length += text.length;
    if (length > MAX_LINE_BYTES) throw new Error("the editor's answer is too large");
  }
  const rest = parts.join("") + decoder.end();
  if (rest.trim()) yield rest;
}

async function firstJson(answer: Exchange): Promise<unknown> {
  for await (const line of answer.lines) {
    const parsed = parseForeignJson(line);
    return parsed.ok ? parsed.value : undefined;
  }
  return undefined;
}

/** Runs `name` in the editor: updates go to `onUpdate`, the result is returned, an error result is thrown (pi's way to fail a tool). */
async function callEditor(handoff: BridgeHandoff, name: string, toolCallId: string, args: unknown, signal: AbortSignal | undefined, onUpdate: ((partial: ToolResult) => void) | undefined): Promise<ToolResult & { details: unknown }> {
  const answer = await exchange(handoff, "POST", `/tools/${name}`, { toolCallId, arguments: args ?? {} }, signal).catch((error: unknown) => {
    throw new Error(signal?.aborted ? `${name} was cancelled.` : `The editor could not be reached (${errorText(error)}).`);
  });
  if (answer.status !== 200) {
    const refused = await firstJson(answer).catch(() => undefined);
    const reason = refused && typeof refused === "object" && "error" in refused ? String((refused as { error: unknown }).error) : `status ${answer.status}`;
    throw new Error(`The editor refused ${name}: ${reason}`);
  }
  for await (const text of answer.lines) {
    const parsed = parseForeignJson(text);
    const line = parsed.ok ? checkLine(parsed.value) : undefined;
    if (!line) continue; // not a line of ours: ignored, as a frame that does not fit is
    if (line.type === "update") {
      onUpdate?.(line.partialResult);
      continue;
    }
    if (line.isError) throw new Error(line.result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n") || `${name} failed.`);
    return { content: line.result.content, details: line.result.details };
  }
  throw new Error(signal?.aborted ? `${name} was cancelled.` : `The editor ended ${name} without a result.`);
}

export default async function piEditorBridge(pi: PiExtensionApi): Promise<void> {
  const handoff = takeHandoff();
  if (!handoff) return;
  // The editor shows in the chat that its tools come through this bridge.
  const hello = await exchange(handoff, "POST", "/hello", {}, AbortSignal.timeout(5000)).catch((error: unknown) => say(`the editor does not answer: ${errorText(error)}`));
  if (hello && hello.status !== 200) say(`the editor refused the bridge (status ${hello.status})`);
  if (hello) await firstJson(hello).catch(() => undefined); // read to the end: the connection is released
  // The tools are registered before the first run, once the editor knows whether the agent took
  // them through set_host_tools: registered at load, they would collide with those (omp refuses
  // set_host_tools then) and the model would be offered each twice.
  let decided = false;
  // A replaced session (new_session, fork, switch) may start without the tools registered before: again at its first run.
  pi.on("session_start", () => {
    decided = false;
    return undefined;
  });
  pi.on("before_agent_start", async () => {
    if (decided) return undefined;
    try {
      const answer = await firstJson(await exchange(handoff, "GET", "/mode", undefined, AbortSignal.timeout(30_000)));
      decided = true;
      if (answer && typeof answer === "object" && (answer as { mode?: unknown }).mode === "bridge") registerTools(pi, handoff);
    } catch (error) {
      say(`could not ask the editor how it serves its tools (asked again at the next run): ${errorText(error)}`);
    }
    return undefined;
  });
}

function registerTools(pi: PiExtensionApi, handoff: BridgeHandoff): void {
  for (const tool of handoff.tools) {
    pi.registerTool({
      name: tool.name,
      label: tool.label ?? tool.name,
      description: tool.description,
      parameters: tool.parameters,
      execute: (toolCallId, params, signal, onUpdate) => callEditor(handoff, tool.name, toolCallId, params, signal, onUpdate),
    });
  }
}

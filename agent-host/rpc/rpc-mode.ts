import type { Readable, Writable } from "node:stream";
import { JsonlWriter, LineDecoder, parseJsonLine } from "../../shared/jsonl";
import { checkInbound, type CommandOf, type CommandType, type RpcCommand } from "../../shared/protocol";
import { handlers, type HandlerContext } from "./handlers";
import type { HostRuntime } from "./runtime";
import { errorText } from "../../shared/error-text";
import { pacedDeltas, type DeltaPacing } from "./delta-pacing";

export interface RpcConnection {
  send(frame: object): void;
  /** Lines that arrive before a handler is set wait for it (start-up can read early). */
  setLineHandler(handler: (line: string) => void): void;
  /** Resolves when the client has closed our input (then the host exits). */
  closed: Promise<void>;
  /** How streamed deltas are paced on this connection (set_delta_interval). */
  pacing: DeltaPacing;
}

/** The longest record read: a prompt with several large images fits; a runaway writer does not exhaust memory. */
export const MAX_LINE_CHARS = 32 * 1024 * 1024;

/**
 * The JSONL channel on a pair of streams: writes honour back-pressure, reads split on LF only.
 * `order` may rearrange outgoing frames (see host-tool-order.ts); then deltas are joined as
 * `pacing` says (delta-pacing.ts).
 */
export function openConnection(input: Readable, output: Writable, order?: (send: (frame: object) => void) => (frame: object) => void): RpcConnection {
  // Frames written in the same tick leave in one write: a fast stream costs a syscall per batch, not per delta.
  let corked = false;
  const writer = new JsonlWriter({
    write: (text) => {
      if (!corked && typeof output.cork === "function") {
        corked = true;
        output.cork();
        setImmediate(() => {
          corked = false;
          output.uncork();
        });
      }
      return output.write(text);
    },
    onDrain: (listener) => {
      output.on("drain", listener);
      return { dispose: () => output.off("drain", listener) };
    },
  });
  const { pacing, paced } = pacedDeltas((frame) => writer.post(frame));
  const write = (frame: object) => paced.post(frame);
  const send = order ? order(write) : write;
  let handler: ((line: string) => void) | undefined;
  const waiting: string[] = [];
  const decoder = new LineDecoder({
    maxLineChars: MAX_LINE_CHARS,
    onLine: (line) => {
      if (!line.trim()) return;
      if (handler) handler(line);
      else waiting.push(line);
    },
    onError: (error) => send({ type: "response", command: "parse", success: false, error: `Failed to parse command: ${error}` }),
  });
  const closed = new Promise<void>((resolve) => {
    input.on("data", (chunk: Buffer) => decoder.push(chunk));
    input.on("end", () => {
      decoder.end();
      resolve();
    });
  });
  return {
    send,
    closed,
    pacing,
    setLineHandler(next) {
      handler = next;
      for (const line of waiting.splice(0)) next(line);
    },
  };
}

/**
 * Pi's RPC mode: every line a command (or an answer to our UI request or host-tool call),
 * answered by one response with the command's id; session events stream in between. Commands
 * run concurrently; a failing handler becomes an error response, never a crash.
 */
export async function serveRpc(runtime: HostRuntime, connection: RpcConnection): Promise<void> {
  const context: HandlerContext = { runtime, send: connection.send, pacing: connection.pacing };
  const subscription = runtime.session.onEvent((event) => connection.send(event));
  connection.setLineHandler((line) => {
    const parsed = parseJsonLine(line);
    if (!parsed.ok) {
      connection.send({ type: "response", command: "parse", success: false, error: `Failed to parse command: ${parsed.error}` });
      return;
    }
    // Keys that could reach a prototype were dropped; the command runs without them.
    for (const notice of parsed.notices) process.stderr.write(`Command line: ${notice}\n`);
    const checked = checkInbound(parsed.value);
    if (!checked.ok) {
      connection.send({ ...(checked.id ? { id: checked.id } : {}), type: "response", command: checked.type ?? "parse", success: false, error: checked.error });
      return;
    }
    const frame = checked.frame;
    if (frame.type === "host_tool_update" || frame.type === "host_tool_result") return runtime.hostTools.receive(frame);
    if (frame.type === "extension_ui_response") return runtime.extensionUi?.receive(frame);
    void dispatch(frame, context);
  });
  await connection.closed;
  subscription.dispose();
  runtime.hostTools.failAll("The client closed the connection");
  runtime.extensionUi?.cancelAll();
  // Nobody reads the output any more: a run still going is aborted (its tools' processes killed).
  await Promise.race([runtime.session.abort(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  // Extensions close their resources (session_shutdown); a handler that hangs does not keep the host.
  await Promise.race([runtime.extensions?.shutdown(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  // MCP servers: stdin closed, then signals (the SDK's close); what is left at exit is killed (mcp-setup.ts).
  await Promise.race([runtime.mcp?.dispose(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
}

async function dispatch(command: RpcCommand, context: HandlerContext): Promise<void> {
  const base = { ...(command.id ? { id: command.id } : {}), type: "response", command: command.type };
  try {
    const handler = handlers[command.type] as (c: CommandOf<CommandType>, ctx: HandlerContext) => unknown;
    const data = await handler(command, context);
    context.send(data === undefined ? { ...base, success: true } : { ...base, success: true, data });
  } catch (error) {
    context.send({ ...base, success: false, error: errorText(error) });
  }
}

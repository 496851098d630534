import type { Readable, Writable } from "node:stream";
import { JsonlWriter, LineDecoder, parseJsonLine } from "../../shared/jsonl";
import { checkInbound, type RpcCommand, type SessionState } from "../../shared/protocol";
import type { CliOptions } from "./cli";

/**
 * The RPC loop: one JSON command per line in, responses and events out. This is the
 * foundation's stub: it answers get_state and refuses what the agent cannot do yet.
 */
export function runRpcMode(options: CliOptions, input: Readable, output: Writable): Promise<void> {
  const writer = new JsonlWriter({
    write: (text) => output.write(text),
    onDrain: (listener) => {
      output.on("drain", listener);
      return { dispose: () => output.off("drain", listener) };
    },
  });
  const send = (frame: object) => void writer.write(frame).catch(() => undefined);
  const sessionId = crypto.randomUUID();

  const handle = (command: RpcCommand) => {
    const base = { id: command.id, type: "response", command: command.type } as const;
    if (command.type === "get_state") {
      const state: SessionState = {
        thinkingLevel: "off",
        isStreaming: false,
        isCompacting: false,
        steeringMode: "one-at-a-time",
        followUpMode: "one-at-a-time",
        sessionId,
        autoCompactionEnabled: true,
        messageCount: 0,
        pendingMessageCount: 0,
      };
      send({ ...base, success: true, data: state });
      return;
    }
    send({ ...base, success: false, error: `Not implemented yet: ${command.type}` });
  };

  const decoder = new LineDecoder({
    onLine: (line) => {
      if (!line.trim()) return;
      const parsed = parseJsonLine(line);
      if (!parsed.ok) {
        send({ type: "response", command: "parse", success: false, error: `Failed to parse command: ${parsed.error}` });
        return;
      }
      const checked = checkInbound(parsed.value);
      if (!checked.ok) {
        send({ id: checked.id, type: "response", command: checked.type ?? "unknown", success: false, error: checked.error });
        return;
      }
      const frame = checked.frame;
      if (frame.type === "extension_ui_response" || frame.type === "host_tool_update" || frame.type === "host_tool_result") return;
      handle(frame);
    },
    onError: (error) => send({ type: "response", command: "parse", success: false, error }),
  });
  void options;
  return new Promise((resolve) => {
    input.on("data", (chunk: Buffer) => decoder.push(chunk));
    input.on("end", () => {
      decoder.end();
      resolve();
    });
  });
}

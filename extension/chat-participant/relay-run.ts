/**
 * One `@pi` request from VS Code's Chat view, run on the user's Pi agent: the prompt is sent,
 * and what the agent does comes back to a ChatSink as it happens (answer text per delta, one
 * progress line per tool, a reference per file a tool names), until the run settles. Plain
 * (no vscode): the participant wraps it, and tests drive it with a real agent.
 */
import type { RpcClient } from "../../shared/rpc";

export interface ChatSink {
  markdown(text: string): void;
  progress(text: string): void;
  /** A file a tool read or wrote (as the tool named it: relative to the agent's folder, or absolute). */
  reference(path: string): void;
}

export interface RelayOutcome {
  /** The run's error (the model's or the agent's), when it ended with one. */
  error?: string;
  tools: number;
}

type Client = Pick<RpcClient, "request" | "onEvent" | "onSettled" | "onExit">;

/** The path a tool call names (Pi's read/write/edit/ls use `path`; editor tools too). */
function namedPath(args: unknown): string | undefined {
  const value = typeof args === "object" && args !== null ? (args as Record<string, unknown>).path ?? (args as Record<string, unknown>).file_path : undefined;
  return typeof value === "string" && value.trim() ? value : undefined;
}

/** `cancel`: the chat request's cancellation (the user pressed Stop): the run is aborted. */
export async function relayRun(client: Client, prompt: string, sink: ChatSink, cancel: { onCancel(listener: () => void): { dispose(): void } }): Promise<RelayOutcome> {
  let tools = 0;
  let error: string | undefined;
  const referenced = new Set<string>();
  const events = client.onEvent((event) => {
    const e = event as { type: string; assistantMessageEvent?: { type: string; delta?: string }; toolName?: string; args?: unknown; isError?: boolean; message?: { role?: string; stopReason?: string; errorMessage?: string } };
    if (e.type === "message_update" && e.assistantMessageEvent?.type === "text_delta" && e.assistantMessageEvent.delta) sink.markdown(e.assistantMessageEvent.delta);
    else if (e.type === "tool_execution_start") {
      tools++;
      const file = namedPath(e.args);
      sink.progress(file ? `${e.toolName ?? "tool"}: ${file}` : `Running ${e.toolName ?? "a tool"}…`);
      if (file && !referenced.has(file)) {
        referenced.add(file);
        sink.reference(file);
      }
    } else if (e.type === "message_end" && e.message?.role === "assistant") {
      // Text of one turn ends: the next turn's text starts on a new paragraph.
      sink.markdown("\n\n");
      if (e.message.stopReason === "error") error = e.message.errorMessage ?? "The model's request failed.";
    }
  });
  const stop = cancel.onCancel(() => void client.request("abort", {}).catch(() => undefined)); // the agent gone: nothing to abort
  // Settled, or the agent exited: no timeout (a run may take long; Stop aborts it).
  let done!: (exited?: string) => void;
  const ended = new Promise<string | undefined>((resolve) => (done = resolve));
  const settled = client.onSettled(() => done());
  const exited = client.onExit(() => done("The agent stopped."));
  try {
    await client.request("prompt", { message: prompt });
    const exit = await ended;
    if (exit) error ??= exit;
  } finally {
    stop.dispose();
    events.dispose();
    settled.dispose();
    exited.dispose();
  }
  return { tools, ...(error ? { error } : {}) };
}

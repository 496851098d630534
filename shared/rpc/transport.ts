import type { Disposable, Event } from "vscode-jsonrpc";

export interface TransportClosed {
  code: number | null;
  signal: string | null;
  /** Why it closed when it was not a normal exit (spawn failure, stream error). */
  error?: string;
}

/** A duplex channel of JSON frames to one agent: a child process, streams, or an in-memory pair. */
export interface FrameTransport extends Disposable {
  /** Each record parsed as JSON (not yet validated). */
  readonly onFrame: Event<unknown>;
  /** A record that was not JSON, or was too long. */
  readonly onBadLine: Event<{ line: string; error: string }>;
  readonly onStderr: Event<string>;
  readonly onClose: Event<TransportClosed>;
  send(frame: unknown): Promise<void>;
  /** Ends the agent's input (Pi exits 0 on EOF). */
  endInput(): void;
}

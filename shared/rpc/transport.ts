import { Emitter, type Disposable, type Event } from "vscode-jsonrpc";

export interface TransportClosed {
  code: number | null;
  signal: string | null;
  /** Why it closed when it was not a normal exit (spawn failure, stream error). */
  error?: string;
}

export interface BadLine {
  line: string;
  error: string;
  /** The record was delivered, with the keys the notices in `error` name dropped. */
  kept?: boolean;
}

/** A duplex channel of JSON frames to one agent: a child process, streams, or an in-memory pair. */
export interface FrameTransport extends Disposable {
  /** Each record parsed as JSON (not yet validated). */
  readonly onFrame: Event<unknown>;
  /** A record that was not JSON, or was too long; or one kept with keys dropped (`kept`). */
  readonly onBadLine: Event<BadLine>;
  readonly onStderr: Event<string>;
  readonly onClose: Event<TransportClosed>;
  send(frame: unknown): Promise<void>;
  /** Ends the agent's input (Pi exits 0 on EOF). */
  endInput(): void;
}

/**
 * The four events of a FrameTransport and their emitters, for transports to hold: a transport
 * exposes the `on…` events and fires through the emitters, and disposes all of them at once.
 */
export function transportEvents() {
  const frame = new Emitter<unknown>();
  const badLine = new Emitter<BadLine>();
  const stderr = new Emitter<string>();
  const close = new Emitter<TransportClosed>();
  return {
    frame,
    badLine,
    stderr,
    close,
    events: { onFrame: frame.event, onBadLine: badLine.event, onStderr: stderr.event, onClose: close.event },
    dispose(): void {
      for (const emitter of [frame, badLine, stderr, close]) emitter.dispose();
    },
  };
}

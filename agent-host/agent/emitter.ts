/** Something to stop listening with. */
export interface Disposable {
  dispose(): void;
}

/** Subscribes a listener; the result unsubscribes it. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/**
 * A minimal event emitter for the host (the shape of vscode-jsonrpc's, which the host does not
 * load: its Node entry point pulls the whole JSON-RPC stack into start-up). A throwing listener
 * does not stop the others.
 */
export class Emitter<T> {
  private listeners: ((value: T) => void)[] = [];

  readonly event: Event<T> = (listener) => {
    this.listeners.push(listener);
    return { dispose: () => void (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };

  fire(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch (error) {
        console.error(error);
      }
    }
  }

  dispose(): void {
    this.listeners = [];
  }
}

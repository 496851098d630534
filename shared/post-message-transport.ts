import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { inertMessage } from "./foreign-json";
import { AbstractMessageReader, AbstractMessageWriter, type DataCallback, type Disposable, type Message } from "vscode-jsonrpc";
import { lazySchema } from "./protocol/lazy-schema";

/**
 * A vscode-jsonrpc MessageReader/MessageWriter pair over a postMessage pair (a webview and its
 * extension, either side): each posted value is one JSON-RPC message, structured-cloned as is
 * (no header framing, no JSON text). Anything else that arrives is reported on `onError` and
 * dropped; the connection goes on.
 */
export interface PostMessagePort {
  /** Posts one value to the other side; a returned promise that rejects is reported as a write error. */
  post(message: unknown): void | PromiseLike<unknown>;
  /** Starts delivering what the other side posts. */
  listen(receive: (data: unknown) => void): Disposable;
}

const Id = lazySchema(() => Type.Union([Type.Integer(), Type.String()]));
/** The shape of one JSON-RPC 2.0 message: a request or notification (`method`), or a response (`id` and `result` or `error`). */
export const JsonRpcFrame = lazySchema(() => Type.Union([
  Type.Object({ jsonrpc: Type.Literal("2.0"), method: Type.String({ minLength: 1, maxLength: 256 }), id: Type.Optional(Id()), params: Type.Optional(Type.Unknown()) }),
  Type.Object({ jsonrpc: Type.Literal("2.0"), id: Type.Union([Id(), Type.Null()]), result: Type.Unknown() }),
  Type.Object({
    jsonrpc: Type.Literal("2.0"),
    id: Type.Union([Id(), Type.Null()]),
    error: Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) }),
  }),
]));

export function isJsonRpcFrame(value: unknown): value is Message {
  if (typeof value !== "object" || value === null) return false;
  // `result` may be undefined on the wire (a void request): TypeBox's Unknown accepts a present key only.
  if ("id" in value && !("method" in value) && !("error" in value) && !("result" in value)) return false;
  return Value.Check(JsonRpcFrame(), value);
}

export class PostMessageReader extends AbstractMessageReader {
  private subscription: Disposable | undefined;

  constructor(private readonly port: PostMessagePort) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.subscription?.dispose();
    const subscription = this.port.listen((received) => {
      // The foreign-JSON door: a cloned `__proto__` (or `constructor`, `prototype`) key is dropped.
      const notices: string[] = [];
      const data = inertMessage(received, notices);
      for (const notice of notices) this.fireError(new Error(`${notice}; the rest of the message was kept`));
      if (isJsonRpcFrame(data)) callback(data);
      else this.fireError(new Error(`not a JSON-RPC message: ${describe(data)}`));
    });
    this.subscription = subscription;
    return { dispose: () => (subscription.dispose(), this.subscription === subscription && (this.subscription = undefined)) };
  }

  override dispose(): void {
    this.subscription?.dispose();
    this.subscription = undefined;
    this.fireClose();
    super.dispose();
  }
}

export class PostMessageWriter extends AbstractMessageWriter {
  private errors = 0;
  private ended = false;

  constructor(private readonly port: PostMessagePort) {
    super();
  }

  write(message: Message): Promise<void> {
    if (this.ended) return Promise.reject(new Error("the channel is closed"));
    try {
      const posted = this.port.post(message);
      // Not awaited: posts keep their order, and the writer never holds a message back.
      if (posted) posted.then(undefined, (error: unknown) => this.fireError(asError(error), message, ++this.errors));
      return Promise.resolve();
    } catch (error) {
      this.fireError(asError(error), message, ++this.errors);
      return Promise.reject(asError(error));
    }
  }

  end(): void {
    this.ended = true;
  }

  override dispose(): void {
    this.ended = true;
    this.fireClose();
    super.dispose();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function describe(data: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(data) ?? String(data);
  } catch {
    text = String(data);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

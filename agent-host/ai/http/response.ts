/**
 * The part of WHATWG `Response` the provider SDKs read (status, ok, headers, url, body, text(),
 * json(), arrayBuffer()), without undici (see ./headers.ts for why). The body is a stream of byte
 * chunks read either with `for await` (OpenAI, Anthropic, our SSE reader) or with a reader
 * (`getReader().read()`, Google's SDK); stopping early (`return()`, `cancel()`) drops the body.
 */
import { HttpHeaders } from "./headers";

/** The reader subset of a WHATWG stream that Google's SDK uses. */
export interface ByteReader {
  read(): Promise<IteratorResult<Uint8Array, undefined>>;
  releaseLock(): void;
  cancel(): Promise<void>;
}

export interface ByteStream extends AsyncIterable<Uint8Array> {
  getReader(): ByteReader;
}

/** One pass over `source`, by `for await` or by a reader, whichever the consumer uses. */
export function byteStream(source: AsyncIterable<Uint8Array>): ByteStream {
  let iterator: AsyncIterator<Uint8Array> | undefined;
  const shared = () => (iterator ??= source[Symbol.asyncIterator]());
  return {
    [Symbol.asyncIterator]: shared,
    getReader: () => ({
      read: async () => {
        const result = await shared().next();
        return result.done ? { done: true, value: undefined } : result;
      },
      releaseLock: () => undefined,
      cancel: async () => void (await shared().return?.()),
    }),
  };
}

export class HttpResponse {
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = "basic";
  private used = false;
  private readonly stream: ByteStream | null;

  constructor(
    source: AsyncIterable<Uint8Array> | null,
    readonly status: number,
    readonly statusText: string,
    readonly headers: HttpHeaders,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status <= 299;
    this.stream = source && byteStream(source);
  }

  get body(): ByteStream | null {
    return this.stream;
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (this.used) throw new TypeError("Body is unusable: Body has already been read");
    this.used = true;
    if (!this.stream) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.stream) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  clone(): never {
    throw new TypeError("This response cannot be cloned (the host reads each body once)");
  }
}

/** A response body's chunks, whether ours or a WHATWG stream from Node's fetch. */
export function bodyChunks(body: ReadableStream<Uint8Array> | ByteStream): AsyncIterable<Uint8Array> {
  // Typed apart: with Node's types every ReadableStream is async-iterable, with the DOM's none is.
  if (typeof (body as Partial<AsyncIterable<Uint8Array>>)[Symbol.asyncIterator] === "function") return body as AsyncIterable<Uint8Array>;
  return (async function* () {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
    } finally {
      reader.releaseLock();
    }
  })();
}

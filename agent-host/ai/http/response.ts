/**
 * The part of WHATWG `Response` the provider SDKs read (status, ok, headers, url, body, text(),
 * json(), arrayBuffer()), without undici (see ./headers.ts for why). The body is an async
 * iterable of byte chunks, which is how the SDKs and our SSE reader consume a stream; `return()`
 * on its iterator (the SDKs' way to drop a body) closes the connection.
 */
import { HttpHeaders } from "./headers";

export type ByteStream = AsyncIterable<Uint8Array>;

export class HttpResponse {
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = "basic";
  private used = false;

  constructor(
    private readonly stream: ByteStream | null,
    readonly status: number,
    readonly statusText: string,
    readonly headers: HttpHeaders,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status <= 299;
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

/** A response body's chunks, whether ours (an async iterable) or a WHATWG stream from Node's fetch. */
export function bodyChunks(body: ReadableStream<Uint8Array> | ByteStream): ByteStream {
  if (Symbol.asyncIterator in body) return body;
  return (async function* () {
    const reader = body.getReader();
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
    } finally {
      reader.releaseLock();
    }
  })();
}

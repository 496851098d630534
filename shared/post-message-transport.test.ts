import { strict as assert } from "node:assert";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ErrorCodes, ResponseError, type Disposable, type Message } from "vscode-jsonrpc";
import { PostMessageReader, PostMessageWriter, isJsonRpcFrame, type PostMessagePort } from "./post-message-transport";
import { fromWebview, openConnection, receiveNotifications, request, sendMessage, serveRequests, toWebview, type SchemaCheck } from "./webview-channel";
import { fromWebviewSchemas, toWebviewSchemas, type FromWebview, type ToWebview } from "./webview-protocol";

/** Two ends of a postMessage pair: what one posts arrives at the other as a structured clone, in a later task. */
function fakePostMessagePair(): { a: FakePort; b: FakePort } {
  const a = new FakePort();
  const b = new FakePort();
  a.peer = b;
  b.peer = a;
  return { a, b };
}

class FakePort implements PostMessagePort {
  peer!: FakePort;
  readonly posted: unknown[] = [];
  private readonly listeners = new Set<(data: unknown) => void>();

  post(message: unknown): Promise<boolean> {
    this.posted.push(message);
    const copy = structuredClone(message);
    setTimeout(() => this.peer.deliver(copy));
    return Promise.resolve(true);
  }

  /** Something arrives that was not written by a MessageWriter. */
  deliver(data: unknown): void {
    for (const listener of [...this.listeners]) listener(data);
  }

  listen(receive: (data: unknown) => void): Disposable {
    this.listeners.add(receive);
    return { dispose: () => this.listeners.delete(receive) };
  }

  get listening(): number {
    return this.listeners.size;
  }
}

const check: SchemaCheck = (schema: TSchema) => (value) => (Value.Check(schema, value) ? undefined : (Value.Errors(schema, value).First()?.message ?? "invalid"));
/** Lets every posted message arrive and be handled (a connection handles one message per task). */
async function settle(): Promise<void> {
  for (let i = 0; i < 30; i++) await new Promise((resolve) => setTimeout(resolve, 1));
}

function recordingLog(): { warnings: string[]; warn(text: string): void; debug(text: string): void } {
  const warnings: string[] = [];
  return { warnings, warn: (text) => warnings.push(text), debug: () => undefined };
}

describe("postMessage reader and writer", () => {
  it("passes each JSON-RPC message as one posted value, in order", async () => {
    const { a, b } = fakePostMessagePair();
    const writer = new PostMessageWriter(a);
    const reader = new PostMessageReader(b);
    const received: Message[] = [];
    reader.listen((message) => received.push(message));
    const sent = Array.from({ length: 50 }, (_, i) => ({ jsonrpc: "2.0", method: "append", params: { type: "append", text: `t${i}` } }));
    for (const message of sent) await writer.write(message);
    await settle();
    assert.deepEqual(a.posted, sent, "one post per message, the message itself (no header, no JSON text)");
    assert.deepEqual(received, sent);
  });

  it("reports and drops what is not a JSON-RPC message, and goes on", async () => {
    const { b } = fakePostMessagePair();
    const reader = new PostMessageReader(b);
    const received: Message[] = [];
    const errors: string[] = [];
    reader.onError((error) => errors.push(error.message));
    reader.listen((message) => received.push(message));
    const junk: unknown[] = [
      { type: "prompt", text: "a plain protocol message" },
      "PWNED",
      null,
      42,
      { jsonrpc: "2.0" },
      { jsonrpc: "1.0", method: "ready" },
      { jsonrpc: "2.0", method: 7 },
      { jsonrpc: "2.0", id: 1 },
      { jsonrpc: "2.0", id: {}, result: 1 },
      { jsonrpc: "2.0", id: 1, error: { message: "no code" } },
    ];
    for (const value of junk) b.deliver(value);
    b.deliver({ jsonrpc: "2.0", method: "ready", params: { type: "ready" } });
    b.deliver({ jsonrpc: "2.0", id: 3, result: null });
    assert.equal(errors.length, junk.length);
    assert.match(errors[0]!, /not a JSON-RPC message: \{"type":"prompt"/);
    assert.deepEqual(received, [
      { jsonrpc: "2.0", method: "ready", params: { type: "ready" } },
      { jsonrpc: "2.0", id: 3, result: null },
    ]);
    assert.equal(isJsonRpcFrame({ jsonrpc: "2.0", id: "x", result: undefined }), true, "a void request's answer");
  });

  it("stops listening when disposed; a closed writer refuses", async () => {
    const { a, b } = fakePostMessagePair();
    const reader = new PostMessageReader(b);
    let closed = 0;
    reader.onClose(() => closed++);
    const received: Message[] = [];
    const listening = reader.listen((message) => received.push(message));
    assert.equal(b.listening, 1);
    listening.dispose();
    assert.equal(b.listening, 0);
    reader.listen((message) => received.push(message));
    reader.dispose();
    assert.equal(b.listening, 0);
    assert.equal(closed, 1);
    b.deliver({ jsonrpc: "2.0", method: "ready" });
    assert.deepEqual(received, []);

    const writer = new PostMessageWriter(a);
    writer.end();
    await assert.rejects(writer.write({ jsonrpc: "2.0" }), /closed/);
    assert.deepEqual(a.posted, []);
  });

  it("reports a post that fails", async () => {
    const errors: string[] = [];
    const failing: PostMessagePort = { post: () => Promise.reject(new Error("webview is disposed")), listen: () => ({ dispose: () => undefined }) };
    const writer = new PostMessageWriter(failing);
    writer.onError(([error, , count]) => errors.push(`${error.message} #${count}`));
    await writer.write({ jsonrpc: "2.0" });
    await settle();
    assert.deepEqual(errors, ["webview is disposed #1"]);
    const throwing = new PostMessageWriter({ post: () => { throw new Error("cannot clone"); }, listen: failing.listen });
    await assert.rejects(throwing.write({ jsonrpc: "2.0" }), /cannot clone/);
  });
});

describe("webview channel", () => {
  function pair() {
    const { a, b } = fakePostMessagePair();
    const extensionLog = recordingLog();
    const webviewLog = recordingLog();
    const extension = openConnection(a, extensionLog, "chat view");
    const webview = openConnection(b, webviewLog, "extension");
    return { a, b, extension, webview, extensionLog, webviewLog };
  }

  it("carries typed notifications both ways; malformed ones are logged and dropped", async () => {
    const { a, b, extension, webview, extensionLog, webviewLog } = pair();
    const atExtension: FromWebview[] = [];
    const atWebview: ToWebview[] = [];
    receiveNotifications(extension, fromWebviewSchemas, fromWebview, check, extensionLog, "chat view", (m) => atExtension.push(m));
    receiveNotifications(webview, toWebviewSchemas, toWebview, check, webviewLog, "extension", (m) => atWebview.push(m));
    extension.listen();
    webview.listen();
    sendMessage(webview, fromWebview, { type: "ready" }, webviewLog);
    sendMessage(extension, toWebview, { type: "append", key: "a1", block: 0, blockType: "text", text: "hi" }, extensionLog);
    // A webview that posts something else: not JSON-RPC, bad params, an unknown method.
    void b.post({ type: "prompt", text: "x" });
    void b.post({ jsonrpc: "2.0", method: "prompt", params: { type: "prompt", text: "" } });
    void b.post({ jsonrpc: "2.0", method: "deleteEverything", params: {} });
    sendMessage(webview, fromWebview, { type: "abort" }, webviewLog);
    await settle();
    assert.deepEqual(atExtension, [{ type: "ready" }, { type: "abort" }]);
    assert.deepEqual(atWebview, [{ type: "append", key: "a1", block: 0, blockType: "text", text: "hi" }]);
    assert.equal(extensionLog.warnings.length, 3, extensionLog.warnings.join("\n"));
    assert.match(extensionLog.warnings[0]!, /malformed message: not a JSON-RPC message/);
    assert.match(extensionLog.warnings[1]!, /malformed prompt message/);
    assert.match(extensionLog.warnings[2]!, /unknown type "deleteEverything"/);
    assert.equal(a.posted.length, 1);
  });

  it("answers requests; bad params get an error reply, bad results are refused", async () => {
    const { extension, webview, extensionLog } = pair();
    let results: unknown = [{ kind: "file", path: "src/a.ts" }];
    serveRequests(extension, check, extensionLog, () => ({
      mentions: async ({ query }) => (query === "bad" ? (results as never) : [{ kind: "file", path: `${query}.ts` }]),
      models: async () => ({ models: [{ provider: "p", id: "m" }], current: { provider: "p", id: "m" } }),
      thinkingLevels: async () => ({ levels: ["off", "high"] }),
      mentionKinds: async ({ paths }) => paths.map((p) => (p.endsWith("/") ? "folder" : p === "gone.ts" ? "none" : "file")),
    }));
    extension.listen();
    webview.listen();
    assert.deepEqual(await request(webview, check, "mentions", { query: "src/a" }), [{ kind: "file", path: "src/a.ts" }]);
    assert.deepEqual(await request(webview, check, "models", {}), { models: [{ provider: "p", id: "m" }], current: { provider: "p", id: "m" } });
    assert.deepEqual(await request(webview, check, "thinkingLevels", {}), { levels: ["off", "high"] });
    assert.deepEqual(await request(webview, check, "mentionKinds", { paths: ["src/a.ts", "gone.ts"] }), ["file", "none"]);
    await assert.rejects(request(webview, check, "mentionKinds", { paths: Array.from({ length: 51 }, () => "a") }), (error: unknown) => error instanceof ResponseError && error.code === ErrorCodes.InvalidParams);
    await assert.rejects(request(webview, check, "mentions", { query: 5 } as never), (error: unknown) => error instanceof ResponseError && error.code === ErrorCodes.InvalidParams);
    assert.match(extensionLog.warnings.join("\n"), /malformed mentions request/);
    results = [{ kind: "socket", path: 1 }];
    await assert.rejects(request(webview, check, "mentions", { query: "bad" }), /malformed mentions result/);
    await assert.rejects(webview.sendRequest("shutdown"), (error: unknown) => error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound);
    assert.match(extensionLog.warnings.join("\n"), /unknown method "shutdown"/);
  });

  it("disposing a side stops its listening and rejects its pending requests", async () => {
    const { a, b, extension, webview } = pair();
    extension.onRequest("mentions", () => new Promise(() => undefined));
    extension.listen();
    webview.listen();
    assert.equal(a.listening, 1);
    assert.equal(b.listening, 1);
    const pending = webview.sendRequest("mentions", { query: "x" });
    await settle();
    webview.dispose();
    await assert.rejects(pending, /disposed/);
    assert.equal(b.listening, 0);
    extension.dispose();
    assert.equal(a.listening, 0);
  });
});

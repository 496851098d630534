// The webview channel through the foreign-JSON door (issue #30): a posted value is structured-
// cloned, and a clone keeps `__proto__` as an own key; the reader drops it (and `constructor`,
// `prototype`), reports each drop, and delivers the rest.
import { strict as assert } from "node:assert";
import type { Disposable, Message } from "vscode-jsonrpc";
import { PostMessageReader, type PostMessagePort } from "./post-message-transport";
import { assertNoForbiddenKeys } from "../test/support/inert";

class Port implements PostMessagePort {
  private receive: ((data: unknown) => void) | undefined;
  post(): void {}
  listen(receive: (data: unknown) => void): Disposable {
    this.receive = receive;
    return { dispose: () => (this.receive = undefined) };
  }
  /** Arrives as the browser delivers it: a structured clone of what was posted. */
  deliver(text: string): void {
    this.receive?.(structuredClone(JSON.parse(text) as unknown));
  }
}

describe("PostMessageReader: foreign keys in webview messages", () => {
  const messages = [
    `{"jsonrpc":"2.0","method":"prompt","params":{"type":"prompt","text":"hi","__proto__":{"polluted":1}}}`,
    `{"jsonrpc":"2.0","method":"prompt","params":{"type":"prompt","text":"hi","images":[{"\\u005f\\u005fproto__":{"polluted":1}}]}}`,
    `{"jsonrpc":"2.0","method":"prompt","params":{"type":"prompt","text":"hi","constructor":{"prototype":{"polluted":1}}}}`,
    `{"jsonrpc":"2.0","id":1,"result":{"__proto__":{},"__proto__":{"polluted":1},"ok":true}}`,
    `{"jsonrpc":"2.0","id":2,"result":null,"__proto__":{"method":"abort"}}`,
  ];
  for (const text of messages) {
    it(`${text}: delivered without the key, each drop reported`, () => {
      const port = new Port();
      const reader = new PostMessageReader(port);
      const got: Message[] = [];
      const errors: string[] = [];
      reader.onError((error) => errors.push(error.message));
      reader.listen((message) => got.push(message));
      port.deliver(text);
      reader.dispose();
      assert.equal(got.length, 1, errors.join("\n"));
      assertNoForbiddenKeys(got[0]);
      assert.equal("method" in got[0], /"method"/.test(text.replace(/"__proto__":\{"method"[^}]*\}/, "")), "no method comes from under __proto__");
      assert.ok(errors.some((e) => /key dropped \(it could reach a prototype\); the rest of the message was kept/.test(e)), errors.join("\n"));
      assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
    });
  }

  it("a message without such a key is delivered as it came (no copy)", () => {
    const port = new Port();
    const reader = new PostMessageReader(port);
    const got: Message[] = [];
    reader.listen((message) => got.push(message));
    port.deliver(`{"jsonrpc":"2.0","method":"ready","params":{"type":"ready"}}`);
    reader.dispose();
    assert.equal(Object.getPrototypeOf(got[0]), Object.prototype);
  });
});

/**
 * The bundled host checks the built-in tools' arguments with validators compiled at build time
 * (dist/tool-validators.js): they must coerce, fill defaults and report errors exactly as AJV
 * compiled at run time would (coerceTypes, useDefaults, allErrors), so the model sees the same.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { messageText, startMockLlm, toolResultMessages, type JsonObject, type MockLlm } from "../support/mock-llm";
import { runPrompt, startPeerClient, type PeerClient } from "./peer-client";

describe("host: built-in tool arguments checked by build-time validators", function () {
  let llm: MockLlm;
  let peer: PeerClient;
  let cwd: string;

  before(async () => {
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), "tool-args-"));
    fs.writeFileSync(path.join(cwd, "lines.txt"), "one\ntwo\nthree\nfour\n");
    llm = await startMockLlm();
    peer = startPeerClient("host", llm, { cwd });
    await peer.client.request("set_auto_retry", { enabled: false });
  });
  after(async () => {
    await peer?.stop();
    await llm?.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  /** Runs one tool call and returns the text of the result the model got back. */
  async function callTool(name: string, args: JsonObject): Promise<string> {
    llm.enqueue({ toolCalls: [{ name, arguments: args }] }, { text: "ok" });
    await runPrompt(peer, `call ${name}`);
    const result = toolResultMessages(llm.requests.at(-1)!).at(-1);
    assert.ok(result, "the model got a tool result");
    return messageText(result);
  }

  it("coerces a number sent as a string (read offset \"3\" starts at line 3)", async () => {
    const text = await callTool("read", { path: "lines.txt", offset: "3", limit: "1" });
    assert.match(text, /three/);
    assert.doesNotMatch(text, /one|two|four/);
  });

  it("reports every problem with the arguments, naming the tool", async () => {
    const text = await callTool("read", { offset: "not a number" });
    assert.match(text, /^Invalid arguments for read: /);
    assert.match(text, /missing path/);
    assert.match(text, /\/offset: must be number/);
    assert.ok(fs.readFileSync(path.join(cwd, "lines.txt"), "utf8").startsWith("one"));
  });

  it("checks each built-in tool's own schema (write needs content; bash accepts a timeout as a string)", async () => {
    assert.match(await callTool("write", { path: "new.txt" }), /Invalid arguments for write: .*content/);
    assert.equal(fs.existsSync(path.join(cwd, "new.txt")), false);
    assert.match(await callTool("bash", { command: "echo coerced", timeout: "5" }), /coerced/);
  });
});

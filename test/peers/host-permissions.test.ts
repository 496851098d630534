/**
 * Our host's permission policy (--confirm-tools, which the editor turns on): before bash runs the
 * client is asked with a select dialog holding the whole command; Deny blocks with a reason the
 * model reads, a session-wide allowance stops asking for what it names, and an unanswered
 * question denies when it times out.
 */
import { strict as assert } from "node:assert";
import type { DialogRequest } from "../../shared/protocol";
import { startMockLlm, toolResultMessages, type MockLlm } from "../support/mock-llm";
import { runPrompt, startPeerClient, type PeerClient } from "./peer-client";

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

describe("host: permission policy for risky tools", function () {
  let llm: MockLlm;
  let peer: PeerClient;
  const asked: DialogRequest[] = [];
  let answer: string | undefined;

  before(async () => {
    llm = await startMockLlm();
    peer = startPeerClient("host", llm, { extraArgs: ["--confirm-tools", "bash,write", "--confirm-timeout", "2"] });
    peer.client.setDialogHandler(async (request, token) => {
      asked.push(request);
      if (answer === undefined) return new Promise((resolve) => token.onCancellationRequested(() => resolve({ cancelled: true })));
      return { value: answer };
    });
    await peer.client.request("set_auto_retry", { enabled: false });
  });
  after(async () => {
    await peer?.stop();
    await llm?.close();
  });

  const lastToolResult = () => {
    const results = toolResultMessages(llm.requests.at(-1)!);
    return results.at(-1)?.content ?? "";
  };

  it("asks before bash and blocks it on Deny, with the reason in the model's context", async () => {
    answer = "Deny";
    llm.enqueue(bash("echo denied"), { text: "ok" });
    await runPrompt(peer, "run it");
    assert.equal(asked.length, 1);
    assert.equal(asked[0].method, "select");
    assert.ok(asked[0].method === "select" && asked[0].options.includes("Allow `echo` with any arguments for this session"));
    assert.equal(asked[0].title, "Allow bash: echo denied");
    assert.match(JSON.stringify(lastToolResult()), /denied this bash call/);
  });

  it("runs it once on Allow once, and asks again next time", async () => {
    answer = "Allow once";
    llm.enqueue(bash("echo once"), { text: "ok" }, bash("echo twice"), { text: "ok" });
    await runPrompt(peer, "again");
    assert.match(JSON.stringify(lastToolResult()), /once/);
    await runPrompt(peer, "and again");
    assert.equal(asked.length, 3);
  });

  it("stops asking for the harmless program the answer named, with any literal arguments", async () => {
    answer = "Allow `echo` with any arguments for this session";
    llm.enqueue(bash("echo s1"), { text: "ok" }, bash("echo s2"), { text: "ok" });
    await runPrompt(peer, "s1");
    await runPrompt(peer, "s2");
    assert.equal(asked.length, 4);
    assert.match(JSON.stringify(lastToolResult()), /s2/);
  });

  it("denies when the question times out, and does not ask for tools outside the list", async () => {
    answer = undefined;
    llm.enqueue({ toolCalls: [{ name: "write", arguments: { path: "x.txt", content: "x" } }] }, { text: "ok" }, { toolCalls: [{ name: "read", arguments: { path: "x.txt" } }] }, { text: "ok" });
    await runPrompt(peer, "write");
    assert.equal(asked.length, 5, JSON.stringify(asked.map((a) => a.title)));
    assert.match(JSON.stringify(lastToolResult()), /not answered/);
    await runPrompt(peer, "read");
    assert.equal(asked.length, 5, "read is not in --confirm-tools");
  });
});

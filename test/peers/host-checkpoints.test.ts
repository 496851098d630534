/**
 * Our host's `--checkpoint-dir` (the editor passes it): before write and edit change a file, the
 * file is recorded in the checkpoint store under the session id and the entry id of the user
 * message that began the turn; the first record of a path in a turn wins.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { restorePlan } from "../../shared/checkpoints/restore-plan";
import { readObject, readRecords } from "../../shared/node/checkpoint-store";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { runPrompt, startPeerClient, type PeerClient } from "./peer-client";

describe("host: checkpoints before write and edit", function () {
  let llm: MockLlm;
  let peer: PeerClient;
  let root: string;
  let work: string;
  let store: string;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "host-checkpoints-"));
    work = path.join(root, "work");
    store = path.join(root, "store");
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, "a.txt"), "alpha one\n");
    fs.writeFileSync(path.join(work, "b.txt"), "beta one\n");
    llm = await startMockLlm();
    peer = startPeerClient("host", llm, { cwd: work, extraArgs: ["--checkpoint-dir", store] });
    await peer.client.request("set_auto_retry", { enabled: false });
  });
  after(async () => {
    await peer?.stop();
    await llm?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const edit = (file: string, oldText: string, newText: string) => ({ name: "edit", arguments: { path: file, edits: [{ oldText, newText }] } });

  it("records each file once per turn, before the tools change it", async () => {
    llm.enqueue(
      { toolCalls: [{ name: "write", arguments: { path: "new.txt", content: "created\n" } }, edit("a.txt", "one", "two")] },
      { toolCalls: [edit("a.txt", "two", "three"), edit(path.join(work, "b.txt"), "one", "two")] },
      { text: "done" },
    );
    await runPrompt(peer, "change three files");
    llm.enqueue({ toolCalls: [edit("a.txt", "three", "four")] }, { text: "done again" });
    await runPrompt(peer, "change a again");

    assert.equal(fs.readFileSync(path.join(work, "a.txt"), "utf8"), "alpha four\n");
    const { sessionId } = await peer.client.request("get_state", {});
    const { messages } = await peer.client.request("get_fork_messages", {});
    assert.equal(messages.length, 2);
    const [first, second] = messages.map((m) => m.entryId);
    const records = readRecords(store, sessionId);
    const shown = records.map((r) => [r.turn, path.relative(work, r.path), r.before && readObject(store, r.before)?.toString()]);
    assert.deepEqual(shown, [
      [first, "new.txt", null],
      [first, "a.txt", "alpha one\n"],
      [first, "b.txt", "beta one\n"],
      [second, "a.txt", "alpha three\n"],
    ]);

    // What a rewind to the first message would restore: every file as it was before it.
    const plan = restorePlan(records, { turns: new Set([first, second]) });
    assert.deepEqual(plan.map((s) => [path.basename(s.path), s.action]), [["new.txt", "delete"], ["a.txt", "write"], ["b.txt", "write"]]);
  });

  it("records nothing for a call that never runs", async () => {
    const { sessionId } = await peer.client.request("get_state", {});
    const before = readRecords(store, sessionId).length;
    llm.enqueue({ toolCalls: [{ name: "write", arguments: { nope: 1 } }] }, { text: "ok" });
    await runPrompt(peer, "bad call");
    assert.equal(readRecords(store, sessionId).length, before);
  });
});

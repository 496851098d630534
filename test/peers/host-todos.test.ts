/**
 * The todo list belongs to the session's branch (seed 001), at our host over RPC with the scripted
 * LLM. Found in the #32 trial: after New Session the chat still showed the old session's plan
 * ("Plan · 0 of 3 done") and get_state kept it. Now a new session starts with none, and switching
 * back (or forking) brings back the branch's last plan: the todo tool's, or the user's edit of it.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordedTodos } from "../../agent-host/tools/todo";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { runPrompt, startPeerClient, type PeerClient } from "./peer-client";

const plan = [{ name: "Fix", tasks: [{ content: "divide by 100", status: "in_progress" }, { content: "add tests", status: "pending" }] }];
type Phase = { name: string; tasks: { content: string; status: string }[] };
const names = (phases: unknown) => ((phases ?? []) as Phase[]).map((p) => `${p.name}: ${p.tasks.map((t) => `${t.content} (${t.status})`).join(", ")}`);

describe("host: the todo list is the session's (new session, switch, fork)", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let peer: PeerClient;
  let root: string;

  before(async () => {
    llm = await startMockLlm();
    root = mkdtempSync(join(tmpdir(), "host-todos-"));
    peer = startPeerClient("host", llm, { cwd: root, persistSession: true, extraArgs: ["--tools", "read,bash,edit,write,todo", "--session-dir", join(root, "sessions")] });
    await peer.client.request("set_auto_retry", { enabled: false });
  });
  after(async () => {
    await peer?.stop();
    await llm?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });
  const state = () => peer.client.request("get_state", {});

  it("starts a new session with no plan, and brings the plan back with its session", async () => {
    llm.enqueue({ toolCalls: [{ name: "todo", arguments: { phases: plan } }] }, { text: "Planned." });
    await runPrompt(peer, "plan the fix");
    const planned = await state();
    assert.deepEqual(names(planned.todoPhases), ["Fix: divide by 100 (in_progress), add tests (pending)"]);
    const first = planned.sessionFile!;

    const cleared = peer.client.waitFor("todo_update");
    await peer.client.request("new_session", {});
    assert.deepEqual((await cleared).phases, [], "the client hears the new session's empty list");
    assert.deepEqual((await state()).todoPhases, []);
    llm.enqueue({ text: "Hello." });
    await runPrompt(peer, "something else");

    await peer.client.request("switch_session", { sessionPath: first });
    assert.deepEqual(names((await state()).todoPhases), ["Fix: divide by 100 (in_progress), add tests (pending)"], "the plan comes back with its session");
  });

  it("keeps the user's edit of the plan with the session, and a fork takes the plan of its branch", async () => {
    const first = (await state()).sessionFile!;
    const edited = [{ id: "p1", name: "Fix", tasks: [{ id: "t1", content: "divide by 100", status: "completed" as const }] }];
    await peer.client.request("set_todos", { phases: edited });
    llm.enqueue({ text: "Noted." });
    await runPrompt(peer, "go on");
    await peer.client.request("new_session", {});
    await peer.client.request("switch_session", { sessionPath: first });
    assert.deepEqual(names((await state()).todoPhases), ["Fix: divide by 100 (completed)"], "the user's edit is the session's plan");

    // A fork from the first prompt holds nothing after it: no plan yet on that branch.
    const { messages } = await peer.client.request("get_fork_messages", {});
    const firstPrompt = messages.find((m) => m.text === "plan the fix")!;
    await peer.client.request("fork", { entryId: firstPrompt.entryId });
    assert.deepEqual((await state()).todoPhases, []);
  });

  it("ignores a plan a crafted session file holds in the wrong shape", () => {
    assert.equal(recordedTodos({ phases: [{ name: 1, tasks: "x" }] }), undefined);
    assert.equal(recordedTodos({ phases: [{ name: "a", tasks: [{ content: "b", status: "done; rm -rf" }] }] }), undefined);
    assert.equal(recordedTodos(null), undefined);
    assert.deepEqual(recordedTodos({ phases: [] }), []);
  });
});

/**
 * Our host in `--mode acp`: its saved sessions for an ACP client, driven by the official SDK's
 * client. `session/list` (this folder's sessions or all of them, newest first, titled, in pages)
 * and `session/resume` (a saved session opened again without its conversation replayed, as the
 * spec's resume is); session/load is in host-acp.test.ts.
 */
import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, messageText } from "../support/mock-llm";
import { peerLaunch } from "../support/peers";
import { startAcpHost, type AcpHarness } from "./acp-support";

const header = (id: string, cwd: string, timestamp: string) => JSON.stringify({ type: "session", version: 3, id, timestamp, cwd });

describe("Our host in --mode acp: session/list and session/resume", function () {
  this.timeout(60_000);
  let h: AcpHarness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("lists this folder's saved sessions newest first, titled by their first message; without a cwd, every folder's; session/resume opens one without a replay and the next prompt has its history", async function () {
    const llm = await startMockLlm();
    const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    try {
      h = await startAcpHost({}, [], { llm, launch });
      const init = await h.initialize();
      assert.ok(init.agentCapabilities?.sessionCapabilities?.list, "session/list is offered");
      assert.ok(init.agentCapabilities?.sessionCapabilities?.resume, "session/resume is offered");
      const ids: string[] = [];
      for (const topic of ["first topic", "second topic"]) {
        const { sessionId } = await h.agent.request("session/new", { cwd: launch.cwd, mcpServers: [] });
        llm.enqueue({ text: `about the ${topic}` });
        await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: topic }] });
        ids.push(sessionId);
        await new Promise((resolve) => setTimeout(resolve, 20)); // distinct modification times
      }
      // Another folder's session in the same session folder (--session-dir is shared): not this cwd's.
      writeFileSync(join(h.sessionDir, "2026-01-01T00-00-00-000Z_other-folder.jsonl"), `${header("other-folder", "/elsewhere", "2026-01-01T00:00:00.000Z")}\n`);
      writeFileSync(join(h.sessionDir, "notes.txt"), "not a session");
      writeFileSync(join(h.sessionDir, "broken.jsonl"), "{ not json\n");

      const mine = await h.agent.request("session/list", { cwd: launch.cwd });
      assert.deepEqual(mine.sessions.map((s) => [s.sessionId, s.title, s.cwd]), [[ids[1], "second topic", launch.cwd], [ids[0], "first topic", launch.cwd]]);
      assert.ok(mine.sessions.every((s) => typeof s.updatedAt === "string" && !Number.isNaN(Date.parse(s.updatedAt))));
      assert.equal(mine.nextCursor, undefined, "one page");
      const all = await h.agent.request("session/list", {});
      assert.deepEqual(all.sessions.map((s) => s.sessionId).sort(), [...ids, "other-folder"].sort());
      await assert.rejects(h.agent.request("session/list", { cwd: "relative/folder" }), /absolute/);
      await h.stop();

      // Another process resumes the first: no conversation replayed, the model gets its history.
      h = await startAcpHost({}, [], { llm, launch });
      await h.initialize();
      const resumed = await h.agent.request("session/resume", { sessionId: ids[0]!, cwd: launch.cwd, mcpServers: [] });
      assert.ok(resumed.modes, "its modes, as session/new gives them");
      assert.deepEqual(h.updates.map((n) => n.update.sessionUpdate).filter((k) => k !== "available_commands_update"), [], "nothing replayed");
      llm.enqueue({ text: "more" });
      await h.agent.request("session/prompt", { sessionId: ids[0]!, prompt: [{ type: "text", text: "go on" }] });
      const messages = llm.requests.at(-1)!.body.messages.map(messageText).join("\n");
      assert.match(messages, /first topic/);
      assert.match(messages, /about the first topic/);
      assert.doesNotMatch(messages, /second topic/);
      await assert.rejects(h.agent.request("session/resume", { sessionId: ids[0]!, cwd: launch.cwd, mcpServers: [] }), /already open/);
      for (const ref of ["no-such-session", "other-folder/../x", join(h.sessionDir, "broken.jsonl"), ids[1]!.slice(0, 8)]) {
        await assert.rejects(h.agent.request("session/resume", { sessionId: ref, cwd: launch.cwd, mcpServers: [] }), /not found/i, ref);
      }
    } finally {
      await h?.stop();
      h = undefined;
      await llm.close();
      launch.cleanup();
    }
  });

  it("pages of 50 with an opaque cursor; a forged cursor is refused", async function () {
    h = await startAcpHost();
    await h.initialize();
    for (let i = 0; i < 120; i++) {
      const id = `s-${String(i).padStart(3, "0")}`;
      writeFileSync(join(h.sessionDir, `2026-01-01T00-00-00-000Z_${id}.jsonl`), `${header(id, h.launch.cwd, "2026-01-01T00:00:00.000Z")}\n`);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = await h.agent.request("session/list", { cwd: h.launch.cwd, ...(cursor ? { cursor } : {}) });
      sizes.push(page.sessions.length);
      seen.push(...page.sessions.map((s) => s.sessionId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    assert.deepEqual(sizes, [50, 50, 20]);
    assert.equal(new Set(seen).size, 120);
    for (const forged of ["-1", "1e3", "abc", "0x10", " 50"]) {
      await assert.rejects(h.agent.request("session/list", { cwd: h.launch.cwd, cursor: forged }), /cursor/i, forged);
    }
  });
});

/**
 * Resume Session with an ACP agent: the bridge lists the agent's saved sessions (session/list,
 * over its pages) and reopens one (session/load), its replay becoming the transcript the chat
 * shows (get_messages), against an in-process ACP agent of the SDK's making that replays what a
 * hostile agent might.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as Acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { AcpBridge } from "./acp-bridge";

type Replay = (client: Acp.AgentContext, sessionId: string) => Promise<void>;

async function connect(capabilities: Acp.AgentCapabilities, replay: Replay, pages: Acp.SessionInfo[][] = []) {
  const acp = (await import("@agentclientprotocol/sdk")) as typeof Acp;
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const prompted: string[] = [];
  acp.agent()
    .onRequest("initialize", () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: capabilities }))
    .onRequest("session/new", () => ({ sessionId: "fresh" }))
    .onRequest("session/list", ({ params }) => {
      const page = Number(params.cursor ?? 0);
      return { sessions: pages[page] ?? [], ...(page + 1 < pages.length ? { nextCursor: String(page + 1) } : {}) };
    })
    .onRequest("session/load", async (ctx) => {
      if (ctx.params.sessionId === "missing") throw acp.RequestError.resourceNotFound("missing");
      await replay(ctx.client, ctx.params.sessionId);
      return {};
    })
    .onRequest("session/prompt", (ctx) => (prompted.push(ctx.params.sessionId), { stopReason: "end_turn" as const }))
    .connect(acp.ndJsonStream(toClient.writable, toAgent.readable));
  const frames: Record<string, unknown>[] = [];
  const fileCalls: string[] = [];
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "acp-sessions-"));
  const bridge = new AcpBridge(acp, (f) => frames.push(f as Record<string, unknown>), {
    cwd,
    agentName: "test agent",
    files: { readTextFile: async (p) => (fileCalls.push(`read ${p}`), ""), writeTextFile: async (p) => void fileCalls.push(`write ${p}`) },
  });
  await bridge.connect(acp.ndJsonStream(toAgent.writable, toClient.readable));
  const request = async (frame: Record<string, unknown> & { type: string }) => {
    const id = `r${frames.length}`;
    bridge.receive({ ...frame, id });
    for (let i = 0; i < 200; i++) {
      const response = frames.find((f) => f.type === "response" && f.id === id);
      if (response) return response;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no response to ${frame.type}`);
  };
  return { bridge, frames, fileCalls, prompted, request, cleanup: () => (bridge.dispose(), fs.rmSync(cwd, { recursive: true, force: true })) };
}

const update = (client: Acp.AgentContext, sessionId: string, u: Acp.SessionUpdate) => client.notify("session/update", { sessionId, update: u });

describe("ACP saved sessions: session/list and session/load from Resume Session", function () {
  this.timeout(20_000);

  it("says what the agent declares: no loadSession, no session/list, nothing offered", async () => {
    const none = await connect({}, async () => undefined);
    try {
      assert.deepEqual(none.bridge.sessionSupport, { list: false, load: false });
      await assert.rejects(none.bridge.listSessions(), /does not list its sessions/);
      await assert.rejects(none.bridge.loadSession("s"), /cannot reopen a session/);
    } finally {
      none.cleanup();
    }
  });

  it("lists the agent's sessions over its pages", async () => {
    const pages = [[{ sessionId: "a", cwd: "/w", title: "first" }], [{ sessionId: "b", cwd: "/w" }], [{ sessionId: "c", cwd: "/w", title: "third" }]];
    const { bridge, cleanup } = await connect({ loadSession: true, sessionCapabilities: { list: {} } }, async () => undefined, pages);
    try {
      assert.deepEqual(bridge.sessionSupport, { list: true, load: true });
      assert.deepEqual((await bridge.listSessions()).map((s) => s.sessionId), ["a", "b", "c"]);
    } finally {
      cleanup();
    }
  });

  it("a loaded session's replay becomes the transcript, nothing of it streams or touches a file (a hostile replay: HTML, a path outside, another session's update); the next prompt goes to it", async () => {
    const outside = path.join(os.homedir(), ".ssh", "authorized_keys");
    const { bridge, frames, fileCalls, prompted, request, cleanup } = await connect({ loadSession: true }, async (client, sessionId) => {
      await update(client, sessionId, { sessionUpdate: "user_message_chunk", content: { type: "text", text: "fix <img src=x onerror=alert(1)> " } });
      await update(client, sessionId, { sessionUpdate: "user_message_chunk", content: { type: "text", text: "please" } });
      await update(client, sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "<script>alert(2)</script>On it." } });
      await update(client, sessionId, { sessionUpdate: "tool_call", toolCallId: "t1", title: "Edit", kind: "edit", status: "pending", content: [{ type: "diff", path: outside, oldText: "a", newText: "ssh-rsa EVIL" }] });
      await update(client, sessionId, { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" });
      await update(client, "another-session", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "injected" } });
      await update(client, sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done." } });
    });
    try {
      const before = frames.length;
      await bridge.loadSession("saved-1");
      const live = frames.slice(before).map((f) => f.type);
      assert.deepEqual(live.filter((t) => typeof t === "string" && (t.startsWith("tool_execution") || t.startsWith("message_"))), [], "the replay does not stream: no card, so no checkpoint or review acts on it");
      assert.deepEqual(fileCalls, [], "no file read or written for the replay");
      const state = (await request({ type: "get_state" })) as { data: { sessionId: string } };
      assert.equal(state.data.sessionId, "saved-1", "the chat sees another session and reloads");
      const { data } = (await request({ type: "get_messages" })) as { data: { messages: { role: string; content: unknown; toolName?: string }[] } };
      const shown = data.messages.map((m) => (m.role === "toolResult" ? `result ${m.toolName}` : `${m.role} ${JSON.stringify(m.content)}`));
      assert.deepEqual(shown, [
        'user "fix <img src=x onerror=alert(1)> please"',
        'assistant [{"type":"text","text":"<script>alert(2)</script>On it."}]',
        `assistant [{"type":"toolCall","id":"t1","name":"edit","arguments":{"title":"Edit","path":${JSON.stringify(outside)},"edits":[{"oldText":"a","newText":"ssh-rsa EVIL"}]}}]`,
        "result edit",
        'assistant [{"type":"text","text":"Done."}]',
      ], "the text as the agent gave it (the chat's markdown escapes it), the other session's update left out");
      await request({ type: "prompt", message: "next" });
      for (let i = 0; i < 100 && prompted.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(prompted, ["saved-1"]);
    } finally {
      cleanup();
    }
  });

  it("a failed load keeps the session it had", async () => {
    const { bridge, request, cleanup } = await connect({ loadSession: true }, async () => undefined);
    try {
      await assert.rejects(bridge.loadSession("missing"));
      const state = (await request({ type: "get_state" })) as { data: { sessionId: string } };
      assert.equal(state.data.sessionId, "fresh");
    } finally {
      cleanup();
    }
  });
});

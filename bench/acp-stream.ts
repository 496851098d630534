// The ACP client's per-delta path, end to end in one process (`npx tsx bench/acp-stream.ts`): an
// ACP agent (the SDK's agent app) streams N message chunks over NDJSON byte streams to our bridge
// (extension/acp/), which turns each into a Pi frame checked as the RpcClient checks it. 4,000
// chunks is a long reply; 40,000 the tenfold. Figures in docs/acp.md.
import type * as Acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { AcpBridge } from "../extension/acp/acp-bridge";
import { checkOutbound } from "../shared/protocol";
void (async () => {
  const acp = (await import("@agentclientprotocol/sdk")) as typeof Acp;
  for (const n of [4000, 4000, 40000, 40000]) {
    const a = new TransformStream<Uint8Array, Uint8Array>(); const b = new TransformStream<Uint8Array, Uint8Array>();
    const agent = acp.agent()
      .onRequest("initialize", () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} }))
      .onRequest("session/new", () => ({ sessionId: "s1" }))
      .onRequest("session/prompt", async (ctx) => {
        for (let i = 0; i < n; i++) await ctx.client.notify("session/update", { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "word " } } });
        return { stopReason: "end_turn" };
      });
    agent.connect(acp.ndJsonStream(b.writable, a.readable));
    let deltas = 0; let settled: () => void = () => undefined; const done = new Promise<void>((r) => (settled = r));
    const bridge = new AcpBridge(acp, (f) => { const frame = f as { type: string }; checkOutbound(frame); if (frame.type === "message_update") deltas++; if (frame.type === "agent_settled") settled(); }, { cwd: "/tmp", agentName: "bench", files: { readTextFile: async () => "", writeTextFile: async () => undefined } });
    await bridge.connect(acp.ndJsonStream(a.writable, b.readable));
    const t0 = process.hrtime.bigint(); const c0 = process.cpuUsage();
    bridge.receive({ type: "prompt", id: "1", message: "go" });
    await done;
    const ms = Number(process.hrtime.bigint() - t0) / 1e6; const cpu = process.cpuUsage(c0);
    console.log(`${n} chunks end to end (SDK NDJSON + validation, bridge, frame check): ${ms.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU, ${(((cpu.user + cpu.system) / n)).toFixed(1)} µs CPU/chunk, ${deltas} deltas`);
    bridge.dispose();
  }
})();

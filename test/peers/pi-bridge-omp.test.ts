// The editor bridge loaded into omp 18.2.3, which has the host-tool protocol: the probe's
// set_host_tools is still taken, the model is offered each editor tool once, and a call goes
// through host_tool_call, not the bridge. (With the bridge registering its tools at load, omp
// refused set_host_tools: capabilities.hostTools was false and the editor tools came through the
// bridge without being declared to the model.)
import { strict as assert } from "node:assert";
import { AgentBridge } from "../../extension/editor-bridge/agent-bridge";
import { messageText, startMockLlm, toolNames, toolResultMessages } from "../support/mock-llm";
import { startPeerClient } from "./peer-client";
import { bridgeFile, standInTools, type ToolCallSeen } from "./pi-bridge-support";

describe("editor bridge loaded into omp 18.2.3 (host-tool protocol)", function () {
  this.timeout(60_000);

  it("set_host_tools is taken, each editor tool is offered once, and calls go through the protocol", async () => {
    const llm = await startMockLlm();
    const throughBridge: ToolCallSeen[] = [];
    const bridge = await AgentBridge.start(() => standInTools(throughBridge));
    const peer = startPeerClient("omp", llm, { extensions: [bridgeFile], prepare: (launch) => Object.assign(launch.env, bridge.env) });
    try {
      const throughProtocol: string[] = [];
      for (const tool of standInTools([])) {
        peer.client.registerHostTool(tool.definition, async (_args, context) => {
          throughProtocol.push(context.toolCallId);
          return { content: [{ type: "text", text: "via host_tool_call" }] };
        });
      }
      await peer.client.request("get_state", {}, { timeoutMs: 30_000 });
      bridge.agentStarted();
      const caps = await peer.client.probe();
      bridge.setMode(caps.hostTools ? "protocol" : "bridge");
      assert.equal(caps.hostTools, true, "omp took set_host_tools with the bridge loaded");
      assert.ok(bridge.bridgeLoaded, "the bridge loaded in omp");
      llm.enqueue({ toolCalls: [{ id: "call_omp", name: "editor_read", arguments: { path: "a.ts" } }] }, { text: "done" });
      await peer.client.request("prompt", { message: "Read a.ts" });
      await llm.waitForRequests(2, 30_000);
      const offered = toolNames(llm.requests[0]!).filter((name) => name.startsWith("editor_"));
      assert.deepEqual(offered, [...new Set(offered)], "each editor tool once");
      assert.equal(offered.length, 7);
      assert.equal(toolResultMessages(llm.requests[1]!).map(messageText).join(""), "via host_tool_call");
      assert.deepEqual([throughProtocol.length, throughBridge.length], [1, 0]);
    } finally {
      await peer.stop();
      bridge.dispose();
      await llm.close();
    }
  });
});

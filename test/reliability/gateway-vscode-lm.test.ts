// VS Code's models through the model gateway (extension/vscode-lm/), served to real agents
// launched as the extension launches them: the bundled host (PI_MODEL_GATEWAY's `custom`
// providers) and pi 0.87.1 (dist/pi-gateway.mjs registers the provider). The model behind the
// endpoint is a scripted LmBackend (vscode.lm's own side is tested in the real editor:
// test/vscode/suite/vscode-lm.test.ts). Checked: streamed text arrives as it is written, a tool
// call goes out and its result comes back in the next request, an abort reaches the model,
// VS Code's refusal reaches the agent as an error, and the token counts.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { AgentGateway } from "../../extension/gateway/agent-gateway";
import { LmError, type LmBackend, type LmChatRequest, type LmModelInfo, type LmStreamPart } from "../../extension/vscode-lm/lm-backend";
import { vscodeLmProvider } from "../../extension/vscode-lm/lm-provider";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerKind, type PeerLaunch } from "../support/peers";

const dist = path.resolve(__dirname, "../../dist");
const model: LmModelInfo = { id: "test-lm-model", name: "Test LM", vendor: "pi-test", family: "scripted", maxInputTokens: 64_000, imageInput: false };

type Script = (request: LmChatRequest, signal: AbortSignal) => AsyncIterable<LmStreamPart>;

/** A backend answering each request with the next script, recording what it was asked. */
function scriptedBackend() {
  const scripts: Script[] = [];
  const requests: LmChatRequest[] = [];
  const aborted: boolean[] = [];
  const backend: LmBackend = {
    models: async () => [model],
    async chat(modelId, request, signal) {
      if (modelId !== model.id) throw new LmError("NotFound", `no model ${modelId}`);
      requests.push(request);
      const script = scripts.shift();
      if (!script) throw new LmError("Unknown", "no script left");
      const index = aborted.push(false) - 1;
      signal.addEventListener("abort", () => (aborted[index] = true));
      return script(request, signal);
    },
    countTokens: async (_id, texts) => texts.reduce((sum, t) => sum + Math.ceil(t.length / 4), 0),
  };
  return { backend, scripts, requests, aborted };
}

async function* parts(...items: LmStreamPart[]): AsyncIterable<LmStreamPart> {
  for (const item of items) {
    await new Promise((r) => setTimeout(r, 5));
    yield item;
  }
}

for (const kind of ["host", "pi"] as const satisfies readonly PeerKind[]) {
  describe(`VS Code's models through the gateway with ${kind === "pi" ? "pi 0.87.1" : "the bundled host"} as the agent`, function () {
    this.timeout(90_000);
    let llm: MockLlm;
    let launch: PeerLaunch;
    let gateway: AgentGateway;
    let client: RpcClient;
    let transport: ProcessTransport;
    let stderr = "";
    const scripted = scriptedBackend();

    before(async () => {
      if (kind !== "host") assertPeerInstalled(kind);
      assert.ok(fs.existsSync(path.join(dist, "pi-gateway.mjs")) && fs.existsSync(path.join(dist, "agent-host.js")), "npm run build first");
      llm = await startMockLlm(); // the agent's own provider: never asked here
      launch = peerLaunch(kind, { mockBaseUrl: llm.baseUrl, ...(kind !== "host" ? { extensions: [path.join(dist, "pi-gateway.mjs")] } : {}) });
      const provider = vscodeLmProvider(scripted.backend, await scripted.backend.models());
      assert.ok(provider);
      gateway = await AgentGateway.start({ variables: [], key: async () => undefined, allowsOrigin: async () => false }, launch.env, undefined, [provider]);
      const env = { ...launch.env, ...gateway.env, PI_SECRET_ENV: Object.keys(gateway.env).join(",") };
      transport = ProcessTransport.spawn(launch.command, launch.args, { env, cwd: launch.cwd });
      client = new RpcClient(transport);
      client.onStderr((text) => (stderr += text));
      await client.request("get_state", {}, { timeoutMs: 30_000 });
      if (kind === "host") await client.request("set_permission_mode", { mode: "auto" });
    });
    after(async () => {
      await transport?.stop();
      client?.dispose();
      gateway?.dispose();
      await llm.close();
      launch.cleanup();
    });

    const prompt = async (text: string) => {
      const settled = client.waitForSettled();
      await client.request("prompt", { message: text });
      await settled.catch((error: unknown) => {
        throw new Error(`${String(error)}; stderr: ${stderr.slice(-800)}`);
      });
    };

    it("lists VS Code's models as the vscode-lm provider, named as VS Code's", async () => {
      const { models } = (await client.request("get_available_models", {})) as { models: { provider: string; id: string; name: string }[] };
      const ours = models.find((m) => m.provider === "vscode-lm");
      assert.deepEqual(ours && { id: ours.id, name: ours.name }, { id: "test-lm-model", name: "Test LM (VS Code)" }, JSON.stringify(models) + stderr);
    });

    it("streams the answer, calls a tool and sends its result in the next request, with the system prompt first", async () => {
      fs.writeFileSync(path.join(launch.cwd, "notes.txt"), "the secret word is quince\n");
      await client.request("set_model", { provider: "vscode-lm", modelId: model.id });
      scripted.scripts.push(
        () => parts({ type: "text", text: "Reading " }, { type: "text", text: "the notes." }, { type: "tool_call", id: "call_1", name: "read", input: { path: "notes.txt" } }),
        () => parts({ type: "text", text: "The word " }, { type: "text", text: "is quince." }),
      );
      const deltas: string[] = [];
      const sub = client.onEvent((event) => {
        const e = event as { type: string; assistantMessageEvent?: { type: string; delta?: string } };
        if (e.type === "message_update" && e.assistantMessageEvent?.type === "text_delta") deltas.push(e.assistantMessageEvent.delta ?? "");
      });
      await prompt("What is the secret word in notes.txt?");
      sub.dispose();
      assert.equal(scripted.requests.length, 2, stderr.slice(-800));
      const [first, second] = scripted.requests;
      assert.equal(first!.tools.some((t) => t.name === "read" && t.inputSchema !== undefined), true, "the agent's tools are declared to the model");
      assert.equal(first!.messages[0]!.role, "user");
      const firstText = first!.messages[0]!.parts.map((p) => (p.type === "text" ? p.text : "")).join("\n");
      assert.match(firstText, /What is the secret word/);
      assert.ok(firstText.indexOf("What is the secret word") > 0, "the system prompt leads the first user turn");
      const call = second!.messages.flatMap((m) => m.parts).find((p) => p.type === "tool_call");
      const result = second!.messages.flatMap((m) => m.parts).find((p) => p.type === "tool_result");
      assert.deepEqual(call && { id: call.type === "tool_call" && call.id, name: call.type === "tool_call" && call.name }, { id: "call_1", name: "read" });
      assert.ok(result?.type === "tool_result" && result.callId === "call_1" && result.content.some((c) => c.type === "text" && c.text.includes("quince")), JSON.stringify(result));
      assert.ok(deltas.length >= 4, `the text came in deltas as streamed: ${JSON.stringify(deltas)}`);
      const { messages } = (await client.request("get_messages", {})) as { messages: { role: string; content: unknown; usage?: { input: number; output: number } }[] };
      const last = messages[messages.length - 1]!;
      assert.match(JSON.stringify(last.content), /The word is quince\./);
      assert.ok(last.usage && last.usage.input > 0 && last.usage.output > 0, `token counts from countTokens: ${JSON.stringify(last.usage)}`);
      console.log(`      figures: ${kind}: requests 2, text deltas ${deltas.length}, usage ${JSON.stringify(last.usage)}`);
    });

    it("aborts the model's request when the agent aborts", async () => {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      scripted.scripts.push(async function* (_request, signal) {
        yield { type: "text", text: "Thinking at length" };
        started();
        while (!signal.aborted) await new Promise((r) => setTimeout(r, 20));
      });
      const settled = client.waitForSettled();
      await client.request("prompt", { message: "Take your time" });
      await running;
      await client.request("abort", {});
      await settled;
      const index = scripted.aborted.length - 1;
      for (let i = 0; i < 100 && !scripted.aborted[index]; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(scripted.aborted[index], true, "the model's request was cancelled");
    });

    it("reports VS Code's refusal (no consent) as the model's error", async () => {
      // chat() itself rejects, as vscode.lm's sendRequest does when the user says no.
      scripted.scripts.push(() => {
        throw new LmError("NoPermissions", "The user did not allow Pi Agent to use Test LM.");
      });
      await prompt("Hello?");
      const { messages } = (await client.request("get_messages", {})) as { messages: { role: string; stopReason?: string; errorMessage?: string }[] };
      const last = messages[messages.length - 1]!;
      assert.equal(last.stopReason, "error", JSON.stringify(last));
      assert.match(last.errorMessage ?? "", /did not allow Pi Agent/);
    });
  });
}

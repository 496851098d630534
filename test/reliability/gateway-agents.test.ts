// Real agents through the model gateway, launched as the extension launches them (the env the
// gateway gives, pi with dist/pi-gateway.mjs): pi 0.87.1 and the bundled host answer prompts with
// a models.json provider whose key is "$MOCK_API_KEY" and with a built-in provider (groq), the
// scripted LLM gets the real keys, and the keys are in no process environment, argument list or
// file of the agent: /proc/<pid>/environ and cmdline of the agent and of a bash its tool starts.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { AgentGateway } from "../../extension/gateway/agent-gateway";
import { messageText, startMockLlm, toolResultMessages, type MockLlm } from "../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerKind, type PeerLaunch } from "../support/peers";
import { fakeSecret, filePlaces, scanForSecrets, type Place } from "./leak-scan";

const dist = path.resolve(__dirname, "../../dist");
const model = { id: "keyed-model", name: "Keyed", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 4096, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
// The walk goes to a file in the working folder (scanned whole below) as well as to the model: a
// tool result keeps only the tail of a long output, and CI's environments are long.
const walk = "p=$$; while [ \"$p\" -gt 1 ]; do echo \"== $p\"; tr '\\0' '\\n' < /proc/$p/environ; tr '\\0' ' ' < /proc/$p/cmdline; echo; p=$(awk '/^PPid:/{print $2}' /proc/$p/status); done > walk.txt; tail -c 2000 walk.txt";

function agentEnd(client: RpcClient): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error("no agent_end within 60 s"))), 60_000);
    const sub = client.onEvent((event) => {
      if (event.type === "agent_end") (clearTimeout(timer), sub.dispose(), resolve());
    });
  });
}

const procText = (pid: number) => ["environ", "cmdline"].map((file) => fs.readFileSync(`/proc/${pid}/${file}`, "latin1").replace(/\0/g, "\n")).join("\n");

for (const kind of ["pi", "pi-1.5.2", "host", "omp"] as const satisfies readonly PeerKind[]) {
  describe(`model gateway with ${{ pi: "pi 0.87.1", "pi-1.5.2": "pi 1.5.2", host: "the bundled host", omp: "omp 18.2.3" }[kind]} as the agent`, function () {
    this.timeout(90_000);
    let llm: MockLlm;
    let launch: PeerLaunch;
    let gateway: AgentGateway | undefined;
    before(async () => {
      if (kind !== "host") assertPeerInstalled(kind);
      assert.ok(fs.existsSync(path.join(dist, "pi-gateway.mjs")) && fs.existsSync(path.join(dist, "agent-host.js")), "npm run build first");
      llm = await startMockLlm();
      launch = peerLaunch(kind, { mockBaseUrl: llm.baseUrl, ...(kind !== "host" ? { extensions: [path.join(dist, "pi-gateway.mjs")] } : {}), extraArgs: ["--session-dir", "sessions"] });
    });
    after(async () => {
      gateway?.dispose();
      await llm.close();
      launch.cleanup();
    });

    it("answers through the gateway with the real keys upstream, and no key in the agent's environ, cmdline or files", async () => {
      const keyed = fakeSecret("sk-keyed-");
      const groq = fakeSecret("gsk_groq_");
      const modelsFile = path.join(launch.agentDir, kind === "omp" ? "models.yml" : "models.json");
      const models = JSON.parse(fs.readFileSync(modelsFile, "utf8")) as { providers: Record<string, unknown> };
      // omp reads a bare variable name (pi ≤ 0.73's form), pi and the host also "$NAME"
      models.providers.keyed = { baseUrl: llm.baseUrl, api: "openai-completions", apiKey: kind === "omp" ? "MOCK_API_KEY" : "$MOCK_API_KEY", models: [model] };
      models.providers.groq = { baseUrl: llm.baseUrl };
      fs.writeFileSync(modelsFile, JSON.stringify(models));
      const stored: Record<string, string> = { MOCK_API_KEY: keyed, GROQ_API_KEY: groq };
      gateway = await AgentGateway.start({ variables: Object.keys(stored), key: async (v) => stored[v], allowsOrigin: async () => true }, launch.env);
      assert.deepEqual([...gateway.providers].sort(), ["groq", "keyed"]);
      // What resolveAgentLaunch gives the agent: the gateway's env, its names in PI_SECRET_ENV.
      const env = { ...launch.env, ...gateway.env, PI_SECRET_ENV: Object.keys(gateway.env).join(",") };
      // Sessions on (peerLaunch turns them off), so that their files are scanned too.
      const args = launch.args.filter((arg) => arg !== "--no-session");
      const transport = ProcessTransport.spawn(launch.command, args, { env, cwd: launch.cwd });
      const client = new RpcClient(transport);
      let stderr = "";
      client.onStderr((text) => (stderr += text));
      try {
        await client.request("get_state", {}, { timeoutMs: 30_000 });
        if (kind === "host") await client.request("set_permission_mode", { mode: "auto" });
        const ask = async (provider: string, modelId: string, text: string) => {
          await client.request("set_model", { provider, modelId });
          // omp ends a run with agent_end and no agent_settled
          const settled = kind === "omp" ? agentEnd(client) : client.waitForSettled();
          await client.request("prompt", { message: text });
          await settled.catch((error: unknown) => {
            throw new Error(`${String(error)}; requests ${llm.requests.length} (${llm.requests.map((r) => r.headers.authorization?.slice(0, 12)).join(", ")}); stderr: ${stderr.slice(-800)}`);
          });
        };
        llm.enqueue({ text: "Walking.", toolCalls: [{ name: "bash", arguments: { command: walk } }] }, { text: "Keyed answer." });
        await ask("keyed", "keyed-model", "Walk up");
        llm.enqueue({ text: "Groq answer." });
        await ask("groq", "llama-3.3-70b-versatile", "And groq?");
        const messages = (await client.request("get_messages", {})) as { messages: unknown[] };
        assert.match(JSON.stringify(messages), /Groq answer\./, stderr);

        assert.deepEqual(llm.requests.map((r) => r.headers.authorization), [`Bearer ${keyed}`, `Bearer ${keyed}`, `Bearer ${groq}`], "the real keys reached the provider");
        const walked = fs.readFileSync(path.join(launch.cwd, "walk.txt"), "utf8");
        assert.ok(walked.includes(`== ${transport.pid}`), `the tool's bash walked up to the agent:\n${walked.slice(0, 300)}`);
        const places: Place[] = [
          { name: `/proc/${transport.pid} environ and cmdline`, text: procText(transport.pid!) },
          { name: "a tool's walk up its ancestors", text: walked },
          { name: "the tool result the model saw", text: toolResultMessages(llm.requests[1]).map(messageText).join("\n") },
          { name: "stderr", text: stderr },
          ...filePlaces(launch.agentDir, "agent dir"),
          ...filePlaces(launch.cwd, "working folder"),
        ];
        assert.ok(places.some((p) => p.name.includes(".jsonl")), "a session file was written and scanned");
        const leaks = scanForSecrets(places, [keyed, groq]);
        console.log(`      figures: ${kind}: providers through the gateway 2, requests ${llm.requests.length}, places scanned ${places.length}, keys found ${leaks.length}`);
        assert.deepEqual(leaks, []);
      } finally {
        await transport.stop();
        client.dispose();
      }
    });
  });
}

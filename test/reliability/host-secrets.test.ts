// API keys given to the agent host by environment (a provider's own variable, and a models.json
// "$VAR" reference) are used — the scripted LLM sees them in the Authorization header — and never
// appear in its stdout, its stderr, the session files, the agent dir or the exported HTML, after a
// session with a prompt, a tool call, a reply and a failing request whose error echoes the key.
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ProcessTransport } from "../../shared/node/process-transport";
import { RpcClient } from "../../shared/rpc";
import { startMockLlm, type MockLlm } from "../support/mock-llm";
import { peerLaunch, type PeerLaunch } from "../support/peers";
import { fakeSecret, filePlaces, scanForSecrets, type Place } from "./leak-scan";

const host = resolve(__dirname, "../../dist/agent-host.js");
const model = { id: "keyed-model", name: "Keyed", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 4096, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };

describe("agent host: API keys from the environment leak nowhere", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let launch: PeerLaunch;
  let out: string;
  before(async () => {
    llm = await startMockLlm();
    launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
    out = mkdtempSync(join(tmpdir(), "secrets-out-"));
  });
  after(async () => {
    await llm.close();
    launch.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  it("uses both keys and writes neither to any output, file or export", async () => {
    const referenced = fakeSecret("sk-ref-");
    const providerEnv = fakeSecret("gsk_env_");
    // "keyed" takes its key from $PI_TEST_REFERENCED_KEY; groq (a built-in) from GROQ_API_KEY, pointed at the mock.
    writeFileSync(join(launch.agentDir, "models.json"), JSON.stringify({
      providers: {
        keyed: { baseUrl: llm.baseUrl, api: "openai-completions", apiKey: "$PI_TEST_REFERENCED_KEY", models: [model] },
        groq: { baseUrl: llm.baseUrl },
      },
    }));
    const sessionDir = join(out, "sessions");
    const env = { ...launch.env, PI_TEST_REFERENCED_KEY: referenced, GROQ_API_KEY: providerEnv };
    const args = [host, "--mode", "rpc", "--provider", "keyed", "--model", "keyed-model", "--session-dir", sessionDir, "--offline", "--workspace-only"];
    writeFileSync(join(launch.cwd, "notes.txt"), "project notes\n");

    const frames: string[] = [];
    let stderr = "";
    const transport = ProcessTransport.spawn(process.execPath, args, { env, cwd: launch.cwd });
    const client = new RpcClient(transport, { trace: (direction, frame) => direction === "in" && frames.push(JSON.stringify(frame)) });
    client.onStderr((text) => (stderr += text));
    let exported: { path: string };
    try {
      await client.request("set_auto_retry", { enabled: false });

      // prompt → tool call → reply, with the $VAR key
      llm.enqueue({ text: "Reading.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] }, { text: "The notes say: project notes." });
      // Listen before asking: a short run may settle before the prompt's answer is handled.
      let settled = client.waitForSettled();
      await client.request("prompt", { message: "What do the notes say?" });
      await settled;
      // a failing request whose error body echoes the Authorization header, with the env key
      await client.request("set_model", { provider: "groq", modelId: "llama-3.3-70b-versatile" });
      llm.enqueue((request) => ({ kind: "error", status: 401, message: `Incorrect API key provided: ${request.headers.authorization}`, headers: { "x-echo-authorization": request.headers.authorization ?? "" } }));
      settled = client.waitForSettled();
      await client.request("prompt", { message: "And now?" });
      await settled;
      exported = await client.request("export_html", { outputPath: join(out, "export.html") });
      await client.request("get_messages", {});
    } finally {
      // A failure above must not leave the host running (it would keep mocha alive).
      await transport.stop();
      client.dispose();
    }

    const authorizations = llm.requests.map((r) => r.headers.authorization);
    assert.deepEqual(authorizations, [`Bearer ${referenced}`, `Bearer ${referenced}`, `Bearer ${providerEnv}`], "each key reached the provider");
    const places: Place[] = [
      { name: "host stdout (every frame)", text: frames.join("\n") },
      { name: "host stderr", text: stderr },
      ...filePlaces(sessionDir, "session dir"),
      ...filePlaces(launch.agentDir, "agent dir"),
      ...filePlaces(exported.path, "exported HTML"),
    ];
    assert.ok(places.some((p) => p.name.startsWith("session dir/")), "a session file was written");
    assert.ok(frames.some((f) => f.includes("Incorrect API key provided")), "the provider error reached the client");
    const leaks = scanForSecrets(places, [referenced, providerEnv]);
    console.log(`      figures: keys 2 (env, models.json $VAR), requests authorised ${authorizations.length}, places scanned ${places.length}, leaks ${leaks.length}`);
    assert.deepEqual(leaks, []);
  });

  it("keeps the keys the editor injected (PI_SECRET_ENV) from every process the tools start, and still authenticates with them", async () => {
    const injected = fakeSecret("sk-injected-");
    const injectedRef = fakeSecret("sk-injected-ref-");
    const ownShellKey = fakeSecret("sk-own-shell-");
    writeFileSync(join(launch.agentDir, "models.json"), JSON.stringify({
      providers: { keyed: { baseUrl: llm.baseUrl, api: "openai-completions", apiKey: "$PI_TEST_REFERENCED_KEY", models: [model] }, groq: { baseUrl: llm.baseUrl } },
    }));
    // What the extension passes: the keys from SecretStorage, and their names in PI_SECRET_ENV.
    const env = { ...launch.env, GROQ_API_KEY: injected, PI_TEST_REFERENCED_KEY: injectedRef, PI_TEST_OWN_KEY: ownShellKey, PI_SECRET_ENV: "GROQ_API_KEY,PI_TEST_REFERENCED_KEY" };
    const args = [host, "--mode", "rpc", "--provider", "keyed", "--model", "keyed-model", "--no-session", "--offline"];
    const transport = ProcessTransport.spawn(process.execPath, args, { env, cwd: launch.cwd });
    const client = new RpcClient(transport);
    const toolOutputs: string[] = [];
    client.on("tool_execution_end", (e) => toolOutputs.push(JSON.stringify(e.result)));
    let userBash: { output: string };
    const before = llm.requests.length;
    try {
      await client.request("set_auto_retry", { enabled: false });
      // Each printenv also goes to a file, read whole below: a tool result keeps only the tail of a
      // long output, and CI's environments are long.
      llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "printenv | tee env-tool.txt; (sleep 0.1; printenv > env-background.txt) & wait" } }] }, { text: "done" });
      let settled = client.waitForSettled();
      await client.request("prompt", { message: "show the environment" });
      await settled;
      await client.request("set_model", { provider: "groq", modelId: "llama-3.3-70b-versatile" });
      llm.enqueue({ text: "groq answers" });
      settled = client.waitForSettled();
      await client.request("prompt", { message: "and with groq?" });
      await settled;
      userBash = await client.request("bash", { command: "printenv | tee env-user.txt" });
    } finally {
      await transport.stop();
      client.dispose();
    }
    const authorizations = llm.requests.slice(before).map((r) => r.headers.authorization);
    assert.deepEqual(authorizations, [`Bearer ${injectedRef}`, `Bearer ${injectedRef}`, `Bearer ${injected}`], "the injected keys still authenticate");
    const whole = (file: string) => readFileSync(join(launch.cwd, file), "utf8");
    const places: Place[] = [
      { name: "bash tool (printenv)", text: whole("env-tool.txt") },
      { name: "bash tool's background subshell (printenv)", text: whole("env-background.txt") },
      { name: "user bash (printenv)", text: whole("env-user.txt") },
    ];
    const results: Place[] = [
      { name: "bash tool results", text: toolOutputs.join("\n") },
      { name: "user bash output", text: userBash.output },
    ];
    const leaks = scanForSecrets([...places, ...results], [injected, injectedRef]);
    const markerSeen = places.filter((p) => p.text.includes("PI_SECRET_ENV")).length;
    const ownKeySeen = places.filter((p) => p.text.includes(ownShellKey)).length;
    console.log(`      figures: injected keys 2, requests authorised ${authorizations.length}, tool processes scanned ${places.length}, leaks ${leaks.length + markerSeen}, own shell key still seen ${ownKeySeen}/${places.length}`);
    assert.deepEqual(leaks, []);
    assert.equal(markerSeen, 0, "PI_SECRET_ENV itself is removed too");
    assert.equal(ownKeySeen, places.length, "a key the user had in their own environment stays (their choice, as in pi)");
  });
});

// The default agent path as a user gets it: no pi.agent.command, so the extension runs our
// bundled host (dist/agent-host.js) with VS Code's runtime; its agent dir (models.json with mock
// providers on the scripted LLM, and the session files) comes through pi.agent.env.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { startMockLlm, type MockLlm } from "../../support/mock-llm";
import { peerLaunch } from "../../support/peers";
import { activateExtension, eventually } from "./agent-fixture";
import { requireUi } from "./ui";

export interface HostFixture {
  api: PiExtensionApi;
  llm: MockLlm;
  agentDir: string;
  /** The state get_state reports now. */
  state(): Promise<NonNullable<PiExtensionApi["supervisor"]["state"]>>;
  /**
   * Waits until the agent's run has ended and the editor has taken in its last event. The model
   * being asked is not enough: its request can reach the test before the editor has read the
   * events written before it (a tool's end), and the review then still holds a file read mid-write.
   * get_state's answer comes after agent_end on the same pipe.
   */
  settled(): Promise<void>;
  /** Sends a prompt through the Send Prompt command and waits until the run settled. */
  prompt(text: string, reply?: string): Promise<void>;
  dispose(): Promise<void>;
}

const keys = ["agent.command", "agent.args", "agent.env", "model.provider", "model.id", "trace"];

function model(id: string, reasoning: boolean) {
  return { id, name: `Mock ${id}`, reasoning, input: ["text"], contextWindow: 128000, maxTokens: 4096, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
}

/** Providers "mock" (mock-a with reasoning, mock-b) and "keyed" (its key only from $MOCK_API_KEY). */
function modelsJson(baseUrl: string): string {
  return JSON.stringify({
    providers: {
      mock: { baseUrl, api: "openai-completions", apiKey: "mock-key", models: [model("mock-a", true), model("mock-b", false)] },
      keyed: { baseUrl, api: "openai-completions", apiKey: "$MOCK_API_KEY", models: [model("keyed-model", false)] },
    },
  });
}

export async function useBundledHost(): Promise<HostFixture> {
  const api = await activateExtension();
  const llm = await startMockLlm();
  const launch = peerLaunch("host", { mockBaseUrl: llm.baseUrl });
  fs.writeFileSync(path.join(launch.agentDir, "models.json"), modelsJson(llm.baseUrl));
  // Small sessions can be compacted (pi keeps the last 20000 tokens by default).
  fs.writeFileSync(path.join(launch.agentDir, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 1 } }));
  const config = vscode.workspace.getConfiguration("pi");
  await api.supervisor.stop();
  for (const key of ["agent.command", "agent.args"]) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
  await config.update("agent.env", { HOME: launch.env.HOME, PI_CODING_AGENT_DIR: launch.agentDir }, vscode.ConfigurationTarget.Global);
  await config.update("model.provider", "mock", vscode.ConfigurationTarget.Global);
  await config.update("model.id", "mock-a", vscode.ConfigurationTarget.Global);
  await config.update("trace", "verbose", vscode.ConfigurationTarget.Global);
  await api.supervisor.restart();
  api.sessions.focusPrimary(); // commands (Send Prompt, ...) act on the side bar's session, as the fixture does
  const fixture: HostFixture = {
    api,
    llm,
    agentDir: launch.agentDir,
    async state() {
      const client = await api.supervisor.ensureStarted();
      return client.request("get_state", {});
    },
    async prompt(text, reply = "OK.") {
      const count = llm.requests.length;
      llm.enqueue({ text: reply });
      api.sessions.focusPrimary();
      await vscode.commands.executeCommand("pi.sendPrompt", text);
      await llm.waitForRequests(count + 1);
      await fixture.settled();
    },
    async settled() {
      await eventually("the run to settle", async () => api.supervisor.status === "idle" && !(await fixture.state()).isStreaming);
    },
    async dispose() {
      await api.supervisor.stop();
      for (const key of keys) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      await llm.close();
      launch.cleanup();
    },
  };
  return fixture;
}

/** The agent's settings, one key at a time as the Settings editor writes them (each change restarts a started or failed agent). */
export async function configureAgent(command: string | undefined, args: string[] | undefined, env: Record<string, string> | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration("pi");
  await config.update("agent.env", env, vscode.ConfigurationTarget.Global);
  await config.update("agent.command", command, vscode.ConfigurationTarget.Global);
  await config.update("agent.args", args, vscode.ConfigurationTarget.Global);
}

/** The text of every message of the current branch, as get_messages returns them. */
export async function messageTexts(api: PiExtensionApi): Promise<string[]> {
  const client = await api.supervisor.ensureStarted();
  const { messages } = await client.request("get_messages", {});
  return messages.map((m) => JSON.stringify((m as { content?: unknown }).content ?? ""));
}

/** The hooks of a suite on the bundled host with the UI bridge: started before, disposed after. Returns the fixture once `before` ran. */
export function useHostSuite(): () => HostFixture {
  let host: HostFixture | undefined;
  before(async function () {
    requireUi(this);
    host = await useBundledHost();
  });
  after(async () => host?.dispose());
  return () => host!;
}

// Points the extension at a real `pi --mode rpc` (0.87.1) talking to a scripted LLM that runs
// here in the extension host, with the UI-dialogs pi extension loaded.
import * as path from "node:path";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import { startMockLlm, type MockLlm } from "../../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerLaunch } from "../../support/peers";

export const extensionId = "pi-agent.pi-agent-vscode";

export interface AgentFixture {
  api: PiExtensionApi;
  llm: MockLlm;
  launch: PeerLaunch;
  dispose(): Promise<void>;
}

export async function activateExtension(): Promise<PiExtensionApi> {
  const extension = vscode.extensions.getExtension<PiExtensionApi>(extensionId);
  if (!extension) throw new Error(`${extensionId} is not loaded`);
  return extension.activate();
}

/** Configures pi 0.87.1 as the agent (user settings), restarting it if it runs. */
/** pi 0.87.1 on the scripted LLM, with the dialogs test extension and `extensions` (paths in the repo). */
export async function usePiAgent(extensions: string[] = []): Promise<AgentFixture> {
  assertPeerInstalled("pi");
  const api = await activateExtension();
  const llm = await startMockLlm();
  const repo = vscode.extensions.getExtension(extensionId)!.extensionPath;
  const launch = peerLaunch("pi", {
    mockBaseUrl: llm.baseUrl,
    extensions: [path.join(repo, "test/fixtures/extensions/ui-dialogs.ts"), ...extensions.map((e) => path.join(repo, e))],
    extraArgs: [],
  });
  const config = vscode.workspace.getConfiguration("pi");
  await api.supervisor.stop();
  await config.update("agent.command", launch.command, vscode.ConfigurationTarget.Global);
  await config.update("agent.args", launch.args, vscode.ConfigurationTarget.Global);
  await config.update("agent.env", { HOME: launch.env.HOME, PI_CODING_AGENT_DIR: launch.env.PI_CODING_AGENT_DIR, PI_OFFLINE: "1" }, vscode.ConfigurationTarget.Global);
  await api.supervisor.ensureStarted();
  await api.supervisor.client!.request("set_auto_retry", { enabled: false });
  return {
    api,
    llm,
    launch,
    async dispose() {
      await api.supervisor.stop();
      for (const key of ["agent.command", "agent.args", "agent.env"]) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      await llm.close();
      launch.cleanup();
    },
  };
}

/** Polls until `check` returns a value (not undefined/false), or fails with `what`. */
export async function eventually<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

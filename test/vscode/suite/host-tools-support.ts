// The editor host tools' test bench: our bundled agent host (dist/agent-host.js) talking to a
// scripted LLM, run by the extension as its configured agent, and helpers that make the model
// call one tool and return what came back.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { PiExtensionApi } from "../../../extension/main";
import type { RpcClient } from "../../../shared/rpc";
import { messageText, startMockLlm, toolResultMessages, type JsonObject, type MockLlm } from "../../support/mock-llm";
import { assertPeerInstalled, peerLaunch, type PeerLaunch } from "../../support/peers";
import { activateExtension, eventually } from "./agent-fixture";

export interface HostAgent {
  api: PiExtensionApi;
  llm: MockLlm;
  launch: PeerLaunch;
  client: RpcClient;
  dispose(): Promise<void>;
}

/**
 * Configures an agent with a mock provider (user settings) and starts it: one that takes host tools
 * (default: our bundled host; omp), or pi, which gets the editor tools through the editor bridge.
 */
export async function useHostAgent(kind: "host" | "omp" | "pi" | "pi-1.5.2" = "host"): Promise<HostAgent> {
  assertPeerInstalled(kind);
  const api = await activateExtension();
  const llm = await startMockLlm();
  const launch = peerLaunch(kind, { mockBaseUrl: llm.baseUrl });
  const config = vscode.workspace.getConfiguration("pi");
  await api.supervisor.stop();
  await config.update("agent.command", launch.command, vscode.ConfigurationTarget.Global);
  await config.update("agent.args", launch.args, vscode.ConfigurationTarget.Global);
  const env = Object.fromEntries(["HOME", "PI_CODING_AGENT_DIR", "PATH", "PI_NO_TITLE", "PI_OFFLINE"].flatMap((key) => (launch.env[key] === undefined ? [] : [[key, launch.env[key]]])));
  await config.update("agent.env", env, vscode.ConfigurationTarget.Global);
  const client = await api.supervisor.ensureStarted();
  await client.request("set_auto_retry", { enabled: false });
  return {
    api,
    llm,
    launch,
    client,
    async dispose() {
      await api.supervisor.stop();
      for (const key of ["agent.command", "agent.args", "agent.env"]) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      await llm.close();
      launch.cleanup();
    },
  };
}

export interface ToolRun {
  /** The tool result text the model received in its next request. */
  text: string;
  isError: boolean;
  /** Partial results sent while it ran (tool_execution_update). */
  updates: string[];
  /** The result the agent reported (tool_execution_end). */
  reported: string;
}

const contentText = (value: unknown): string => {
  const content = (value as { content?: { type: string; text?: string }[] } | undefined)?.content ?? [];
  return content.map((part) => part.text ?? "").join("");
};

/**
 * Starts a run in which the model calls `toolName` with `args`, then answers "done". Resolves
 * when the run has settled; `whileRunning` may act on the UI meanwhile (the call is under way).
 */
export async function callTool(agent: HostAgent, toolName: string, args: JsonObject, whileRunning?: () => Promise<void>): Promise<ToolRun> {
  const { client, llm } = agent;
  const toolCallId = `call_${toolName}_${llm.requests.length}`;
  llm.enqueue({ toolCalls: [{ id: toolCallId, name: toolName, arguments: args }] }, { text: "done" });
  const updates: string[] = [];
  let end: { result: unknown; isError: boolean } | undefined;
  const subs = [
    client.on("tool_execution_update", (e) => e.toolCallId === toolCallId && updates.push(contentText(e.partialResult))),
    client.on("tool_execution_end", (e) => {
      if (e.toolCallId === toolCallId) end = { result: e.result, isError: e.isError };
    }),
  ];
  try {
    const settled = client.waitForSettled(90_000);
    await client.request("prompt", { message: `Please use ${toolName}.` });
    if (whileRunning) await whileRunning();
    await settled;
  } finally {
    for (const sub of subs) sub.dispose();
  }
  assert.ok(end, `the agent ran ${toolName}`);
  const answered = llm.requests.find((request) => toolResultMessages(request).some((message) => message.tool_call_id === toolCallId));
  const message = answered && toolResultMessages(answered).find((m) => m.tool_call_id === toolCallId);
  return { text: message ? messageText(message) : "", isError: end.isError, updates, reported: contentText(end.result) };
}

/** A JSON tool result, parsed. */
export function json<T = Record<string, unknown>>(run: ToolRun): T {
  try {
    return JSON.parse(run.text) as T;
  } catch {
    throw new Error(`Not a JSON tool result: ${run.text}`);
  }
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, "a workspace folder is open");
  return folder.uri.fsPath;
}

/** Writes a file of the sample workspace (a throw-away copy) and returns its URI. */
export function writeWorkspaceFile(relative: string, text: string): vscode.Uri {
  const file = path.join(workspaceRoot(), relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return vscode.Uri.file(file);
}

/** The diff tabs of edit reviews that are open. */
export function reviewTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === "pi-edit"),
  );
}

export const waitForReview = () => eventually("the edit review diff to open", () => reviewTabs()[0], 30_000);

/** Throws away a document's unsaved changes. */
export async function revert(document: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand("workbench.action.files.revert");
  await eventually(`${path.basename(document.fileName)} to be reverted`, () => !document.isDirty);
}

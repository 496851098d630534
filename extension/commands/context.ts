import * as vscode from "vscode";
import type { RpcClient } from "../../shared/rpc";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import type { ApiKeyStore } from "../api-keys";
import { notificationText, quickPickText } from "../ui/plain-text";
import { errorText } from "../../shared/error-text";

/** What the chat view offers commands (implemented in main.ts over the chat controller). */
export interface ChatAccess {
  /** Puts text into the chat's input box and shows the chat. */
  setInput(text: string): void;
}

export interface CommandContext {
  supervisor: AgentSupervisor;
  chat: ChatAccess;
  /** The session's chat is on screen: a failed start shows there, in place, not again as a toast that outlives it. */
  readonly chatVisible?: boolean;
  /** Adds files, folders or a file's lines (1-based) to the message being written, and shows the chat. */
  attachToChat(uris: vscode.Uri[], lines?: { start: number; end: number }): Promise<void>;
  apiKeys: ApiKeyStore;
  log: vscode.LogOutputChannel;
  /** Where exports go: the extension's own storage, never the workspace. */
  exportsDir: string;
  /** The message the agent gets for `text`, as the session's chat composes it (what the user undid since, say). */
  composeMessage?(text: string): Promise<string>;
  /** The session the command acts on, by name, when the window has more than one (else undefined). */
  readonly targetName?: string | undefined;
}

/** A command's title, naming the session it acts on when there is more than one (#32). */
export function commandTitle(ctx: Pick<CommandContext, "targetName">, title: string): string {
  return ctx.targetName ? `${title} — ${quickPickText(ctx.targetName)}` : title;
}


/** The agent, started if needed; a failure is shown, not thrown. */
export async function agentClient(ctx: CommandContext): Promise<RpcClient | undefined> {
  try {
    return await ctx.supervisor.ensureStarted();
  } catch (error) {
    startFailed(ctx, error);
    return undefined;
  }
}

/**
 * A start failed: said in the session's chat (in place, gone once a start succeeds); a notification
 * only when that chat is not on screen, with the ways to fix it (the agent's settings, retry, the
 * log), and gone too once a start succeeds (AgentNotices).
 */
export function startFailed(ctx: CommandContext, error: unknown): void {
  if (ctx.chatVisible && errorText(error) === ctx.supervisor.startFailure) return;
  ctx.supervisor.noticeStartFailure(errorText(error));
}

/** Runs one agent command for a UI command; its failure becomes an error message. */
export async function run<T>(ctx: CommandContext, what: string, action: (client: RpcClient) => Promise<T>): Promise<T | undefined> {
  const client = await agentClient(ctx);
  if (!client) return undefined;
  try {
    return await action(client);
  } catch (error) {
    ctx.log.warn(`${what} failed: ${errorText(error)}`);
    void vscode.window.showErrorMessage(`Pi: ${what} failed: ${notificationText(errorText(error))}`);
    return undefined;
  }
}

/** Sends a user message: a prompt when idle; while running, steering or a follow-up. */
export async function sendMessage(ctx: CommandContext, text: string, whileRunning: "steer" | "followUp" = "steer"): Promise<void> {
  await run(ctx, "Sending the message", async (client) => {
    const message = ctx.composeMessage ? await ctx.composeMessage(text) : text;
    if (ctx.supervisor.status !== "running") return client.request("prompt", { message });
    return whileRunning === "steer" ? client.request("steer", { message }) : client.request("follow_up", { message });
  });
}

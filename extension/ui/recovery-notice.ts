import * as vscode from "vscode";
import type { AgentSupervisor } from "../supervision/agent-supervisor";
import type { ChatAccess } from "../commands";

/** After a crash or restart: the steering/follow-up texts the agent never got, to send again or edit. */
export async function offerUndelivered(texts: string[], supervisor: AgentSupervisor, chat: ChatAccess): Promise<void> {
  const joined = texts.join("\n\n");
  const count = texts.length === 1 ? "1 queued message was" : `${texts.length} queued messages were`;
  const choice = await vscode.window.showWarningMessage(
    `The Pi agent restarted; ${count} not delivered.`,
    { detail: joined },
    "Send Again",
    "Put in Chat Input",
  );
  if (choice === "Put in Chat Input") chat.setInput(joined);
  else if (choice === "Send Again") {
    const client = await supervisor.ensureStarted();
    await client.request("prompt", { message: joined, streamingBehavior: "followUp" });
  }
}

import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { RpcClient } from "../../shared/rpc";
import { withoutContext } from "../chat/context/context-format";
import { commandTitle, run, type CommandContext } from "./context";
import { listSessions } from "./session-list";
import { forkRows, sessionRow } from "./session-items";
import { notificationText, quickPickText } from "../ui/plain-text";
import { acpResumeLack, acpSessionRows } from "./acp-session-items";
import type { AgentSessions } from "../acp/acp-agent-features";

/**
 * An export's path in the extension's storage (folder 0700), named after the session: exports hold
 * the whole conversation, so they stay out of the workspace (and its `git status`).
 */
function exportPath(dir: string, sessionFile: string | undefined): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = sessionFile ? path.basename(sessionFile).replace(/\.jsonl$/, "") : `session-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  return path.join(dir, `${name}.html`);
}

/** Session commands refuse to run during a turn: offer to abort it first. */
async function idleFirst(ctx: CommandContext, client: RpcClient, what: string): Promise<boolean> {
  if (ctx.supervisor.status !== "running") return true;
  const choice = await vscode.window.showWarningMessage(`Pi is working. Abort the current turn and ${what}?`, { modal: true }, "Abort and Continue");
  if (choice !== "Abort and Continue") return false;
  await client.request("abort", {});
  return true;
}

/**
 * Resume Session with an ACP agent: its own saved sessions (session/list), reopened with their
 * history (session/load), where it declares both; else a sentence that says what it lacks.
 */
async function resumeAcpSession(ctx: CommandContext, client: RpcClient, sessions: AgentSessions): Promise<void> {
  const lack = acpResumeLack(sessions.agentName, sessions.canLoad, sessions.canList);
  if (lack) return void vscode.window.showInformationMessage(lack);
  const state = await ctx.supervisor.agent.refresh(client);
  const listed = await sessions.list();
  if (listed.length === 0) return void vscode.window.showInformationMessage(`Pi: ${notificationText(sessions.agentName)} has no saved sessions for this workspace yet.`);
  const picked = await vscode.window.showQuickPick(acpSessionRows(listed, state.sessionId), { title: commandTitle(ctx, "Pi: Resume Session"), placeHolder: `${quickPickText(sessions.agentName)}'s sessions of this workspace`, matchOnDescription: true, matchOnDetail: true });
  if (!picked || picked.sessionId === state.sessionId) return;
  if (!(await idleFirst(ctx, client, "switch sessions"))) return;
  await sessions.load(picked.sessionId);
  await ctx.supervisor.agent.refresh(client);
}

/** The session commands of one session (`ctx.supervisor`'s): what the palette and the chat header's menu run. */
export function sessionCommandActions(ctx: CommandContext) {
  return {
    newSession: () =>
      run(ctx, "Starting a new session", async (client) => {
        if (!(await idleFirst(ctx, client, "start a new session"))) return;
        const result = await client.request("new_session", {});
        if (result.cancelled) void vscode.window.showInformationMessage("Pi: an extension cancelled the new session.");
        await ctx.supervisor.agent.refresh(client);
      }),
    resumeSession: () =>
      run(ctx, "Resuming a session", async (client) => {
        const acpSessions = ctx.supervisor.acp?.sessions;
        if (acpSessions) return resumeAcpSession(ctx, client, acpSessions);
        const state = await ctx.supervisor.agent.refresh(client);
        if (!state.sessionFile) {
          void vscode.window.showInformationMessage("Pi: this agent keeps no session files (was it started with --no-session?).");
          return;
        }
        const sessions = listSessions(path.dirname(state.sessionFile));
        if (sessions.length === 0) return void vscode.window.showInformationMessage("Pi: no saved sessions for this workspace yet.");
        const picked = await vscode.window.showQuickPick(sessions.map((s) => sessionRow(s, state.sessionFile)), {
          title: commandTitle(ctx, "Pi: Resume Session"),
          placeHolder: "Sessions of this workspace, newest first",
          matchOnDescription: true,
          matchOnDetail: true,
        });
        if (!picked || picked.session.file === state.sessionFile) return;
        if (!(await idleFirst(ctx, client, "switch sessions"))) return;
        const result = await client.request("switch_session", { sessionPath: picked.session.file });
        if (result.cancelled) void vscode.window.showInformationMessage("Pi: an extension cancelled the switch.");
        await ctx.supervisor.agent.refresh(client);
      }),
    forkFromMessage: () =>
      run(ctx, "Forking", async (client) => {
        // Said before a message is picked, not after: ACP has no session tree to fork.
        const acpAgent = ctx.supervisor.acp?.name;
        if (acpAgent !== undefined) return void vscode.window.showInformationMessage(`Pi: ACP has no session tree: forking is not available with ${notificationText(acpAgent)}.`);
        const omp = ctx.supervisor.capabilities?.forkCommand === "branch";
        const { messages } = omp ? await client.request("get_branch_messages", {}) : await client.request("get_fork_messages", {});
        if (messages.length === 0) return void vscode.window.showInformationMessage("Pi: there is no user message to fork from yet.");
        const items = forkRows(messages);
        const picked = await vscode.window.showQuickPick(items, { title: commandTitle(ctx, "Pi: Fork from Message"), placeHolder: "A new session with everything before this message" });
        if (!picked) return;
        if (!(await idleFirst(ctx, client, "fork"))) return;
        const result = omp ? await client.request("branch", { entryId: picked.entryId }) : await client.request("fork", { entryId: picked.entryId });
        if (result.cancelled) return void vscode.window.showInformationMessage("Pi: an extension cancelled the fork.");
        await ctx.supervisor.agent.refresh(client);
        if (result.text !== undefined) ctx.chat.setInput(withoutContext(result.text));
      }),
    exportHtml: () =>
      run(ctx, "Exporting the session", async (client) => {
        const { sessionFile } = await client.request("get_state", {});
        // The path we asked for, not the one the agent answers: a sandboxed pi is foreign to the
        // editor, and its answer would be chmod'ed, opened in the browser and shown as a link.
        const file = exportPath(ctx.exportsDir, sessionFile);
        await client.request("export_html", { outputPath: file });
        fs.chmodSync(file, 0o600); // whatever the agent's umask: the export holds the whole conversation
        const uri = vscode.Uri.file(file);
        void vscode.window.showInformationMessage(`Pi: exported the session to ${notificationText(file)}`, "Open in Browser", "Open as Text", "Save As…").then(async (choice) => {
          if (choice === "Open in Browser") void vscode.env.openExternal(uri);
          else if (choice === "Open as Text") void vscode.commands.executeCommand("vscode.open", uri);
          else if (choice === "Save As…") {
            const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
            const target = await vscode.window.showSaveDialog({ ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, path.basename(file)) } : {}), filters: { HTML: ["html"] } });
            if (target) await vscode.workspace.fs.copy(uri, target, { overwrite: true });
          }
        });
        return file;
      }),
  };
}

export function registerSessionCommands(ctx: CommandContext): vscode.Disposable[] {
  const actions = sessionCommandActions(ctx);
  return Object.entries(actions).map(([name, action]) => vscode.commands.registerCommand(`pi.${name}`, action));
}

import * as vscode from "vscode";
import { AgentSupervisor } from "./agent-supervisor";
import { ChatController } from "./chat/chat-controller";
import { CHAT_VIEW_ID, ChatViewProvider } from "./chat/chat-view";
import { Lifetime } from "./lifetime";
import { restartWhenChanged } from "./settings";
import { showNativeDialog } from "./ui/native-dialogs";
import { NoticePresenter } from "./ui/notices";

/** What activate() returns: used by the real-VS-Code tests, and by other extensions. */
export interface PiExtensionApi {
  readonly supervisor: AgentSupervisor;
  readonly chat: ChatController;
  readonly notices: NoticePresenter;
}

let extensionLifetime: Lifetime | undefined;
let activeSupervisor: AgentSupervisor | undefined;

export function activate(context: vscode.ExtensionContext): PiExtensionApi {
  const lifetime = new Lifetime();
  extensionLifetime = lifetime;
  const log = lifetime.add(vscode.window.createOutputChannel("Pi Agent", { log: true }));
  const supervisor = lifetime.add(new AgentSupervisor(context.extensionPath, log));
  activeSupervisor = supervisor;
  const view = lifetime.add(new ChatViewProvider(context.extensionUri, log));
  const chat = lifetime.add(new ChatController(supervisor, view));
  const notices = lifetime.add(
    new NoticePresenter((notice) => {
      if (notice.method === "set_editor_text") chat.post({ type: "setInput", text: notice.text });
      else log.info(`UI request ${notice.method} is not shown yet: ${JSON.stringify(notice)}`);
    }),
  );

  supervisor.onAttach((client, agentLifetime) => {
    client.setDialogHandler((request, token) => showNativeDialog(request, token));
    client.setNoticeHandler((notice) => notices.show(notice));
    agentLifetime.add({ dispose: () => notices.clear() });
  });

  lifetime.add(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }));
  lifetime.add(
    vscode.commands.registerCommand("pi.focusChat", () => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`)),
  );
  lifetime.add(
    vscode.commands.registerCommand("pi.sendPrompt", async (text?: string) => {
      const message = text ?? (await vscode.window.showInputBox({ title: "Ask Pi", prompt: "Message for the agent" }));
      if (message) await chat.prompt(message);
    }),
  );
  lifetime.add(vscode.commands.registerCommand("pi.abort", () => chat.abort()));
  lifetime.add(vscode.commands.registerCommand("pi.restartAgent", () => supervisor.restart().then(() => undefined)));
  lifetime.add(vscode.commands.registerCommand("pi.showLog", () => log.show()));
  lifetime.add(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (restartWhenChanged.some((key) => e.affectsConfiguration(key)) && supervisor.client) void supervisor.restart();
    }),
  );
  context.subscriptions.push(lifetime);
  return { supervisor, chat, notices };
}

export async function deactivate(): Promise<void> {
  await activeSupervisor?.stop();
  extensionLifetime?.dispose();
  activeSupervisor = undefined;
  extensionLifetime = undefined;
}

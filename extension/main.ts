import * as vscode from "vscode";
import { AgentSupervisor } from "./agent-supervisor";
import { ApiKeyStore } from "./api-keys";
import { ChatController } from "./chat/chat-controller";
import { CHAT_VIEW_ID, ChatViewProvider } from "./chat/chat-view";
import { registerCommands } from "./commands";
import { installEditorHostTools } from "./host-tools";
import { Lifetime } from "./lifetime";
import { applyWhenChanged, restartWhenChanged } from "./settings";
import { AgentStatusItem } from "./status/status-item";
import { EditorDialogs } from "./ui/editor-dialog";
import { showNativeDialog } from "./ui/native-dialogs";
import { NoticePresenter } from "./ui/notices";
import { offerUndelivered } from "./ui/recovery-notice";

/** What activate() returns: used by the real-VS-Code tests, and by other extensions. */
export interface PiExtensionApi {
  readonly supervisor: AgentSupervisor;
  readonly chat: ChatController;
  readonly notices: NoticePresenter;
  readonly status: AgentStatusItem;
  readonly apiKeys: ApiKeyStore;
  readonly editorDialogs: EditorDialogs;
  /** Where the "Pi Agent" log file is written. */
  readonly logFolder: vscode.Uri;
}

let extensionLifetime: Lifetime | undefined;
let activeSupervisor: AgentSupervisor | undefined;

export function activate(context: vscode.ExtensionContext): PiExtensionApi {
  const lifetime = new Lifetime();
  extensionLifetime = lifetime;
  const log = lifetime.add(vscode.window.createOutputChannel("Pi Agent", { log: true }));
  const apiKeys = lifetime.add(new ApiKeyStore(context.secrets, context.globalState));
  const supervisor = lifetime.add(new AgentSupervisor({ extensionPath: context.extensionPath, log, secretEnv: () => apiKeys.environment() }));
  activeSupervisor = supervisor;
  const view = lifetime.add(new ChatViewProvider(context.extensionUri, log));
  const chat = lifetime.add(new ChatController(supervisor, view));
  const editorDialogs = lifetime.add(new EditorDialogs());
  const status = lifetime.add(new AgentStatusItem(supervisor.agent));
  const notices = lifetime.add(new NoticePresenter((notice) => log.info(`UI request ${notice.method} is not shown: ${JSON.stringify(notice)}`)));

  // Dialogs: native UI and a chat card (first answer wins); the status bar shows one is open.
  const dialogs = chat.withInlineDialogs((request, token) => showNativeDialog(request, token, editorDialogs));
  supervisor.onAttach((client, agentLifetime) => {
    client.setDialogHandler((request, token) => supervisor.agent.trackDialog(dialogs(request, token)));
    client.setNoticeHandler((notice) => {
      if (notice.method === "setTitle") view.setTitle(notice.title);
      if (!chat.showNotice(notice)) notices.show(notice);
    });
    agentLifetime.add({ dispose: () => notices.clear() });
  });
  lifetime.add(installEditorHostTools(supervisor));

  const chatAccess = {
    setInput: (text: string) => {
      chat.post({ type: "setInput", text });
      view.reveal();
    },
  };
  lifetime.add(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }));
  for (const disposable of registerCommands({ supervisor, chat: chatAccess, apiKeys, log })) lifetime.add(disposable);
  lifetime.add(supervisor.agent.onUndelivered((texts) => offerUndelivered(texts, supervisor, chatAccess)));
  lifetime.add(
    supervisor.agent.onDidChangeSession(({ state, previous }) => {
      // Another conversation (new, resumed, forked): the transcript of the old one goes.
      if (previous && previous.sessionId !== state.sessionId) chat.transcript.clear();
    }),
  );
  lifetime.add(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (restartWhenChanged.some((key) => e.affectsConfiguration(key))) {
        if (supervisor.client) void supervisor.restart().catch((error: unknown) => log.error(`Restart after a settings change failed: ${String(error)}`));
      } else if (applyWhenChanged.some((key) => e.affectsConfiguration(key))) {
        void supervisor.applySettings((key) => e.affectsConfiguration(key));
      }
    }),
  );
  context.subscriptions.push(lifetime);
  return { supervisor, chat, notices, status, apiKeys, editorDialogs, logFolder: context.logUri };
}

export async function deactivate(): Promise<void> {
  await activeSupervisor?.stop();
  extensionLifetime?.dispose();
  activeSupervisor = undefined;
  extensionLifetime = undefined;
}

/**
 * The sandbox's placeholders, explained where the user sees them: while a sandboxed command (or pi
 * sandboxed whole) runs, bwrap keeps each missing protected name (`.envrc`, `.vscode/`, …) from
 * being made with an empty entry of that name in the workspace (shared/node/sandbox/stubs.ts).
 * In the Explorer they read as files of the user's; decorated, they say what they are and that
 * they go by themselves. Starts with the first agent (nothing before Pi is used); only names a
 * stub can have are looked at.
 */
import * as vscode from "vscode";
import { isStub } from "../../shared/node/sandbox/stubs";
import { mayBeStub, stubNameGlob } from "../../shared/node/sandbox/stub-ledger";
import type { AgentAttach } from "../supervision/supervisor-options";

const placeholder: vscode.FileDecoration = {
  badge: "S",
  tooltip: "Placeholder of the sandbox: keeps this name from being made while an agent's sandboxed command runs. Removed when it ends.",
  color: new vscode.ThemeColor("gitDecoration.ignoredResourceForeground"),
  propagate: false,
};

export function decorateSandboxStubs(everyAgent: { onAttach(hook: AgentAttach): void }): vscode.Disposable {
  const changed = new vscode.EventEmitter<vscode.Uri[]>();
  const subscriptions: vscode.Disposable[] = [changed];
  let started = false;
  everyAgent.onAttach(() => {
    if (started) return;
    started = true;
    subscriptions.push(
      vscode.window.registerFileDecorationProvider({
        onDidChangeFileDecorations: changed.event,
        provideFileDecoration: (uri) => (uri.scheme === "file" && mayBeStub(uri.fsPath) && isStub(uri.fsPath) ? placeholder : undefined),
      }),
    );
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${stubNameGlob()}`);
    const again = (uri: vscode.Uri) => changed.fire([uri]);
    subscriptions.push(watcher, watcher.onDidCreate(again), watcher.onDidChange(again), watcher.onDidDelete(again));
  });
  return { dispose: () => subscriptions.splice(0).forEach((s) => s.dispose()) };
}

/**
 * The editor's side of an ACP agent's sign-in (acp-sign-in.ts): the methods in a quick pick (rows
 * from acp-auth.ts: the agent's reason and descriptions whole, nothing of its text drawn as an
 * icon or a link), a stored key read from SecretStorage when the method takes one, and a terminal
 * sign-in run in a VS Code terminal after its whole command line was shown and agreed to.
 */
import * as vscode from "vscode";
import { commandLine, signInReasonRows, signInRows, signInTitle, variablesLine, type SignInMethod } from "./acp-auth";
import type { SignInUi } from "./acp-sign-in";
import { notificationText } from "../ui/plain-text";

type Row = vscode.QuickPickItem & { methodId?: string };

export function vscodeSignInUi(keys: { key(variable: string): Promise<string | undefined> } | undefined, gateway: { routeFor(variable: string): { baseUrl: string; token: string } | undefined } | undefined, cwd: string): SignInUi {
  return {
    choose: (agentName, reason, methods) => choose(agentName, reason, methods),
    apiKey: async (variable) => keys?.key(variable),
    gateway: async (variable) => gateway?.routeFor(variable),
    runInTerminal: (agentName, method) => runInTerminal(agentName, method, cwd),
  };
}

function choose(agentName: string, reason: string, methods: readonly SignInMethod[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<Row>();
    pick.title = signInTitle(agentName);
    pick.placeholder = "Pick how to sign in (the rows under each say what it does)";
    const choices = signInRows(methods, agentName).map((row): Row => ({ ...row, alwaysShow: true }));
    pick.items = [...signInReasonRows(reason).map((row): Row => ({ ...row, alwaysShow: true })), { label: "Sign in with", kind: vscode.QuickPickItemKind.Separator }, ...choices];
    const first = choices.find((row) => row.methodId);
    if (first) pick.activeItems = [first];
    pick.ignoreFocusOut = true;
    let chosen: string | undefined;
    pick.onDidAccept(() => {
      const row = pick.selectedItems[0];
      if (!row?.methodId) return; // a row of text: nothing to do
      chosen = row.methodId;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}

async function runInTerminal(agentName: string, method: Extract<SignInMethod, { kind: "terminal" }>, cwd: string): Promise<number | undefined> {
  const line = commandLine(method.command, method.args);
  const env = Object.keys(method.env).length ? `\nWith: ${variablesLine(method.env)}` : "";
  const run = "Run in a terminal";
  const answer = await vscode.window.showWarningMessage(
    notificationText(`${agentName} asks you to sign in by running a command`),
    // It runs as the user, outside any sandbox the agent runs in: the agent chose its arguments and variables.
    { modal: true, detail: notificationText(`${line}${env}\n\nIn: ${cwd}\nIt runs in the editor's environment, outside the agent's sandbox, with your permissions.`) },
    run,
  );
  if (answer !== run) return undefined;
  const terminal = vscode.window.createTerminal({ name: `Sign in: ${agentName}`.slice(0, 60), shellPath: method.command, shellArgs: [...method.args], env: method.env, cwd });
  terminal.show();
  return new Promise((resolve) => {
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t !== terminal) return;
      closed.dispose();
      resolve(t.exitStatus?.code ?? 1);
    });
  });
}

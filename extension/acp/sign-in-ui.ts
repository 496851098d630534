/**
 * The editor's side of an ACP agent's sign-in (acp-sign-in.ts): the methods in a quick pick (rows
 * from acp-auth.ts: the agent's reason and descriptions whole, nothing of its text drawn as an
 * icon or a link), a stored key read from SecretStorage when the method takes one, and a terminal
 * sign-in run in a VS Code terminal after its whole command line was shown and agreed to.
 *
 * Everything the user is shown here closes when the sign-in is cancelled (Abort, the session
 * closing, the agent exiting): so the confirmation is a quick pick, not a modal message, which
 * no extension can close.
 */
import * as vscode from "vscode";
import { signInReasonRows, signInRows, signInTitle, pickText, terminalConfirmRows, terminalEnvironment, type SignInMethod } from "./acp-auth";
import type { SignInUi, TerminalSignIn } from "./acp-sign-in";

type Row = vscode.QuickPickItem & { answer?: string };

export function vscodeSignInUi(keys: { key(variable: string): Promise<string | undefined> } | undefined, gateway: { routeFor(variable: string): { baseUrl: string; token: string } | undefined } | undefined, cwd: string): SignInUi {
  return {
    choose: (agentName, reason, methods, signal) => choose(agentName, reason, methods, signal),
    apiKey: async (variable) => keys?.key(variable),
    gateway: async (variable) => gateway?.routeFor(variable),
    runInTerminal: (agentName, method, signal) => runInTerminal(agentName, method, cwd, signal),
  };
}

/**
 * A quick pick of `rows` (those with an `answer` answer it; Enter on the others does nothing);
 * resolves with the answer, or undefined when it is hidden or `signal` aborts (which hides it).
 */
function ask(title: string, placeholder: string, rows: readonly Row[], active: Row | undefined, signal: AbortSignal): Promise<string | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<Row>();
    pick.title = title;
    pick.placeholder = placeholder;
    pick.items = rows;
    if (active) pick.activeItems = [active];
    pick.ignoreFocusOut = true;
    let answer: string | undefined;
    const close = () => pick.hide();
    signal.addEventListener("abort", close, { once: true });
    pick.onDidAccept(() => {
      const row = pick.selectedItems[0];
      if (!row?.answer) return; // a row of text: nothing to do
      answer = row.answer;
      pick.hide();
    });
    pick.onDidHide(() => {
      signal.removeEventListener("abort", close);
      pick.dispose();
      resolve(signal.aborted ? undefined : answer);
    });
    pick.show();
  });
}

function choose(agentName: string, reason: string, methods: readonly SignInMethod[], signal: AbortSignal): Promise<string | undefined> {
  const choices = signInRows(methods, agentName).map((row): Row => ({ label: row.label, ...(row.description ? { description: row.description } : {}), ...(row.methodId ? { answer: row.methodId } : {}), alwaysShow: true }));
  const rows: Row[] = [...signInReasonRows(reason).map((row): Row => ({ ...row, alwaysShow: true })), { label: "Sign in with", kind: vscode.QuickPickItemKind.Separator }, ...choices];
  return ask(signInTitle(agentName), "Pick how to sign in (the rows under each say what it does)", rows, choices.find((row) => row.answer), signal);
}

async function runInTerminal(agentName: string, method: TerminalSignIn, cwd: string, signal: AbortSignal): Promise<number | undefined> {
  const rows = terminalConfirmRows(method, cwd).map((row): Row => ({ label: row.label, ...(row.action ? { answer: row.action } : {}), alwaysShow: true }));
  // The command's first row is active, not Run: a second Enter does not run the agent's command unread.
  const answer = await ask(pickText(`${agentName.slice(0, 60)} asks you to sign in by running a command`), "Read the command, then pick Run in a terminal or Cancel", rows, rows.find((row) => !row.answer), signal);
  if (answer !== "run" || signal.aborted) return undefined;
  const terminal = vscode.window.createTerminal({ name: `Sign in: ${agentName}`.slice(0, 60), shellPath: method.command, shellArgs: [...method.args], env: terminalEnvironment(method), cwd });
  terminal.show();
  return new Promise((resolve) => {
    const done = (code: number | undefined) => {
      closed.dispose();
      signal.removeEventListener("abort", stop);
      resolve(code);
    };
    // Cancelled: the login's terminal (and its process) is closed.
    const stop = () => {
      terminal.dispose();
      done(undefined);
    };
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t === terminal) done(t.exitStatus?.code ?? 1);
    });
    signal.addEventListener("abort", stop, { once: true });
  });
}

import * as vscode from "vscode";

let focused: boolean | undefined;
let following: vscode.Disposable | undefined;
let stopped = false;

/**
 * Whether this window has the focus, followed by its event from the first question on: reading
 * vscode.window.state costs about half a millisecond on the extension host, and every session's
 * run end asks (eight can end in one read of a shared process's output).
 */
export const windowFocus = {
  get focused(): boolean {
    if (stopped) return vscode.window.state.focused;
    if (focused === undefined) {
      focused = vscode.window.state.focused;
      following = vscode.window.onDidChangeWindowState((state) => (focused = state.focused));
    }
    return focused;
  },
  dispose(): void {
    stopped = true;
    following?.dispose();
    following = undefined;
    focused = undefined;
  },
};

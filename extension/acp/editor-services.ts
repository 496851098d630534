/**
 * What an ACP agent asks of the editor: `fs/read_text_file` from the buffer the user sees (unsaved
 * changes included), `fs/write_text_file` through the buffer when the file is open (and saved),
 * else to disk, and its terminals shown as VS Code pseudo-terminals. The write's checkpoint and its
 * place in the Changes review come from the tool card the bridge shows first (acp-bridge.ts):
 * checkpoints/recording.ts records the file before, review/review-tracking.ts takes it in.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { AcpFileServices } from "./acp-bridge";
import { terminalCommandText } from "./acp-terminals";

function openDocument(absPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === absPath);
}

interface ShownTerminal {
  terminal: vscode.Terminal;
  write: vscode.EventEmitter<string>;
  close: vscode.EventEmitter<number | void>;
}

export class AcpEditorServices implements AcpFileServices, vscode.Disposable {
  private readonly terminals = new Map<string, ShownTerminal>();

  constructor(private readonly agentName: string) {}

  async readTextFile(absPath: string): Promise<string> {
    const document = openDocument(absPath);
    if (document) return document.getText();
    // A file that is not there reads as empty: gemini-cli does not take the spec's "not found"
    // error for one and then cannot create it (docs/acp.md).
    if (!fs.existsSync(absPath)) return "";
    return fs.promises.readFile(absPath, "utf8");
  }

  async writeTextFile(absPath: string, content: string): Promise<void> {
    if (!path.isAbsolute(absPath)) throw new Error(`ACP paths are absolute: ${absPath}`);
    const document = openDocument(absPath);
    if (document) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), content);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused the edit of ${absPath}`);
      if (!(await document.save())) throw new Error(`The editor could not save ${absPath}`);
      return;
    }
    await fs.promises.mkdir(path.dirname(absPath), { recursive: true });
    await fs.promises.writeFile(absPath, content, "utf8");
  }

  created(terminalId: string, command: string): void {
    const write = new vscode.EventEmitter<string>();
    const close = new vscode.EventEmitter<number | void>();
    // The command is the agent's text: shown with its control characters escaped, so that it cannot
    // drive the terminal (clear it, set its title, forge lines or links) or fake the tab's name.
    const shownCommand = terminalCommandText(command);
    const terminal = vscode.window.createTerminal({
      name: `${this.agentName}: ${shownCommand.replace(/\\u[0-9a-f]{4}|\s+/g, " ").slice(0, 40)}`,
      isTransient: true,
      pty: { onDidWrite: write.event, onDidClose: close.event, open: () => write.fire(`$ ${shownCommand.replace(/\n/g, "\r\n")}\r\n`), close: () => undefined },
    });
    this.terminals.set(terminalId, { terminal, write, close });
  }

  /** A chunk of the command's output, as it came: a terminal shows what a command writes. */
  output(terminalId: string, chunk: string): void {
    this.terminals.get(terminalId)?.write.fire(chunk.replace(/\r?\n/g, "\r\n"));
  }

  exited(terminalId: string, exitCode: number | null): void {
    this.terminals.get(terminalId)?.write.fire(`\r\n[exit ${exitCode ?? "killed"}]\r\n`);
  }

  dispose(): void {
    for (const shown of this.terminals.values()) {
      shown.terminal.dispose();
      shown.write.dispose();
      shown.close.dispose();
    }
    this.terminals.clear();
  }
}

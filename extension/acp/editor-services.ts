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
import { iconsAsText } from "../ui/plain-text";
import { sameText } from "../host-tools/verified-file";
import { writeVerified, type WriteJudge } from "../host-tools/verified-write";
import { loadedThroughCommandLink, whileSandboxHeld } from "../save-guard/save-guard";

function openDocument(absPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === absPath);
}

/**
 * One agent command's VS Code pseudo-terminal. What is written before VS Code opens it (a fast
 * command is often done by then) VS Code would drop: it is held until `open`, its end only
 * (HELD_BEFORE_OPEN characters), as the terminal's scrollback would keep.
 */
class ShownTerminal implements vscode.Disposable {
  readonly terminal: vscode.Terminal;
  private readonly writes = new vscode.EventEmitter<string>();
  private readonly closes = new vscode.EventEmitter<number | void>();
  private held: string | undefined = "";

  constructor(name: string, header: string) {
    this.held = header;
    this.terminal = vscode.window.createTerminal({
      name,
      isTransient: true,
      pty: {
        onDidWrite: this.writes.event,
        onDidClose: this.closes.event,
        open: () => {
          const held = this.held;
          this.held = undefined;
          if (held) this.writes.fire(held);
        },
        close: () => undefined,
      },
    });
  }

  write(text: string): void {
    if (this.held === undefined) return this.writes.fire(text);
    this.held += text;
    if (this.held.length > 2 * HELD_BEFORE_OPEN) this.held = `…\r\n${this.held.slice(-HELD_BEFORE_OPEN)}`;
  }

  dispose(): void {
    this.terminal.dispose();
    this.writes.dispose();
    this.closes.dispose();
  }
}

const HELD_BEFORE_OPEN = 1_000_000;

/** Foreign text as a terminal tab's name: one line of at most 40 characters, no control characters. */
const tabText = (text: string) => iconsAsText(terminalCommandText(text).replace(/\\u[0-9a-f]{4}|\s+/g, " ").slice(0, 40));
const SHOWN_TERMINALS = 10;

export class AcpEditorServices implements AcpFileServices, vscode.Disposable {
  private readonly terminals = new Map<string, ShownTerminal>();

  /** `agentName`: the agent's name now (it names itself once initialized). */
  constructor(private readonly agentName: () => string) {}

  async readTextFile(absPath: string, verified?: Uint8Array): Promise<string> {
    const document = openDocument(absPath);
    if (verified !== undefined) {
      // The file as really opened (acp-files.ts): the buffer only if it holds it, or the user's unsaved changes.
      if (document && !loadedThroughCommandLink(document.uri) && (document.isDirty || sameText(document.getText(), verified))) return document.getText();
      return new TextDecoder("utf-8").decode(verified).replace(/^\uFEFF/, "");
    }
    if (document) return document.getText();
    // A file that is not there reads as empty: gemini-cli does not take the spec's "not found"
    // error for one and then cannot create it (docs/acp.md).
    if (!fs.existsSync(absPath)) return "";
    return fs.promises.readFile(absPath, "utf8");
  }

  /** Through the buffer and a save, or made by name: with the sandboxed processes held still (save-guard.ts). */
  writeTextFile(absPath: string, content: string, judge?: { folders: readonly string[]; why: WriteJudge }): Promise<void> {
    if (!path.isAbsolute(absPath)) return Promise.reject(new Error(`ACP paths are absolute: ${absPath}`));
    return whileSandboxHeld([absPath], () => this.writeNow(absPath, content, judge));
  }

  private async writeNow(absPath: string, content: string, judge?: { folders: readonly string[]; why: WriteJudge }): Promise<void> {
    const document = openDocument(absPath);
    if (document) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), content);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused the edit of ${absPath}`);
      if (!(await document.save())) throw new Error(`The editor could not save ${absPath}`);
      return;
    }
    // A sandboxed agent's: the file really opened is judged before it is written (verified-write.ts).
    if (judge) return writeVerified(absPath, content, judge.folders, judge.why, absPath);
    await fs.promises.mkdir(path.dirname(absPath), { recursive: true });
    await fs.promises.writeFile(absPath, content, "utf8");
  }

  created(terminalId: string, command: string): void {
    // The command is the agent's text: shown with its control characters escaped, so that it cannot
    // drive the terminal (clear it, set its title, forge lines or links) or fake the tab's name.
    const shownCommand = terminalCommandText(command);
    const name = `${tabText(this.agentName())}: ${tabText(command)}`;
    this.terminals.set(terminalId, new ShownTerminal(name, `$ ${shownCommand.replace(/\n/g, "\r\n")}\r\n`));
    // An agent that runs many commands leaves the last SHOWN_TERMINALS open, not one per command.
    for (const [id, shown] of this.terminals) {
      if (this.terminals.size <= SHOWN_TERMINALS) break;
      shown.dispose();
      this.terminals.delete(id);
    }
  }

  /** A chunk of the command's output, as it came: a terminal shows what a command writes. */
  output(terminalId: string, chunk: string): void {
    this.terminals.get(terminalId)?.write(chunk.replace(/\r?\n/g, "\r\n"));
  }

  exited(terminalId: string, exitCode: number | null): void {
    this.terminals.get(terminalId)?.write(`\r\n[exit ${exitCode ?? "killed"}]\r\n`);
  }

  dispose(): void {
    for (const shown of this.terminals.values()) shown.dispose();
    this.terminals.clear();
  }
}

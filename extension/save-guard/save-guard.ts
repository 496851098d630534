/**
 * Keeps VS Code's saves inside the places sandboxed commands may write. A save opens the
 * document's path by name and follows links, so a command that turned `notes.txt` (or a folder on
 * its way) into a link to `~/.bashrc` after the document was loaded would have the user's next save
 * write there (planted-link.ts). Before each save of a file while the agents are sandboxed with a
 * writable workspace: every sandboxed process of this window is stopped (shared/node/sandbox/freeze.ts,
 * so no command flips the path between this check and VS Code's write), a link a command made that
 * leads out is moved aside (the save then makes a plain file where the user sees it, or fails), and
 * the processes go on once the save is done (sandbox-hold.ts). Armed at the first sandboxed agent
 * start: nothing runs before Pi is used.
 */
import { readlinkSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { errorText } from "../../shared/error-text";
import { piAgentDir } from "../../shared/node/project-trust";
import { realPathOrSame } from "../../shared/node/real-path";
import { hiddenSecretOf, protectedReason } from "../../shared/node/sandbox/protected-match";
import { shellQuote } from "../../shared/node/sandbox/quarantine";
import { homeEnvOf } from "../../shared/node/sandbox/secret-places";
import { settings } from "../settings";
import { notificationText } from "../ui/plain-text";
import { fileTextHeld, readVerified } from "../host-tools/verified-file";
import { realFolders } from "../host-tools/workspace-paths";
import { DocumentMarks } from "./document-marks";
import { SandboxHold } from "./sandbox-hold";
import { moveLinkAside, plantedLinkOnWay, putLinkBack, type SaveScope } from "./planted-link";

/** The longest a save waits for the hold (freeze.ts: 800 ms, then a sandbox not held is killed and waited for 300 ms), below VS Code's 1.5 s. */
const HOLD_WAIT_MS = 1_300;

/** The button on a link's notice that puts it back. */
const PUT_BACK = "Put the Link Back";

/** Folders sandboxed agents write in (SaveGuard.addRoots). */
export interface SandboxRoots {
  workspaces?: readonly string[];
  agentRoots?: readonly string[];
}

/** Whether the check comes before VS Code's write, after one made without it, or after VS Code loaded a document again through the link. */
type Moment = "before" | "after" | "reloaded";

/**
 * Whose write the check is for: the user's (a save: a document they opened through a link is
 * theirs to save there) or Pi's own (a review's Undo, a rewind, an ACP write): never through a
 * command's link, whoever opened the document (Pi's own review diff opens it by name, through the link).
 */
type Writer = "user" | "pi";

/** The guard of this window once armed (a writer elsewhere in the extension goes through whileSandboxHeld). */
let armed: SaveGuard | undefined;

/**
 * Runs `act`, which has VS Code write or delete `paths` by name (a review's Undo, a rewind, an ACP
 * agent's write), with the sandboxed processes held still and the links they made on those paths
 * moved aside first. Just runs it while no sandboxed agent has started.
 */
export function whileSandboxHeld<T>(paths: readonly string[], act: () => Promise<T>): Promise<T> {
  return armed && settings.sandboxMode === "workspace-write" ? armed.whileHeld(paths, act) : act();
}

/**
 * Whether VS Code loaded the document of `uri` again through a command's link (its text is the
 * linked file's, whatever the user typed since): no door hands it to an agent (readable-for-agent.ts).
 */
export function loadedThroughCommandLink(uri: vscode.Uri): boolean {
  return armed?.loadedThroughLink(uri) ?? false;
}

/** When a sandboxed agent first started in this workspace (ms since the epoch), kept across windows. */
const SINCE_KEY = "pi.saveGuard.since";

export class SaveGuard implements vscode.Disposable {
  /**
   * Links changed since then are taken for a command's: the first sandboxed start in this
   * workspace, in any window (a document restored unsaved after a restart can have had its link
   * made in an earlier one), 1 s early (the kernel's file times run on a coarser clock).
   */
  private readonly since: number;
  /** Where sandboxed agents work besides the workspace folders (a worktree): writes may land there. */
  private readonly workspaces = new Set<string>();
  /** Where sandboxed agents also write (pi/omp sandboxed whole: their own folders): links there are looked at, writes may not land there. */
  private readonly agentRoots = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];
  /** The one hold of the sandboxed processes while any save or write is under way. */
  private readonly hold: SandboxHold;
  /** What it knows of each open document (document-marks.ts). */
  private readonly marks = new DocumentMarks();
  /** Each document's check against the workspace file under way (checkLoaded). */
  private readonly checks = new Map<string, Promise<void>>();
  private writes = 0;
  /** Links moved aside (or removed) so far: whether a check moved one. */
  private linksMoved = 0;

  /**
   * `hostScript`: the bundled host's script (dist/agent-host.js), whose processes start a sandbox
   * for each command: held whole, so that none starts one while a write is under way.
   */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    memory: vscode.Memento,
    hostScript: string,
  ) {
    this.hold = new SandboxHold(hostScript);
    armed = this;
    this.since = memory.get<number>(SINCE_KEY) ?? Date.now() - 1_000;
    void memory.update(SINCE_KEY, this.since);
    this.subscriptions = [
      vscode.workspace.onWillSaveTextDocument((event) => {
        if (event.document.uri.scheme !== "file" || settings.sandboxMode !== "workspace-write") return;
        event.waitUntil(this.beforeSave(event.document));
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        // A document loaded again from disk: a change while it has none unsaved, from no edit, undo or redo.
        if (event.reason !== undefined || event.document.isDirty || event.contentChanges.length === 0) return;
        if (event.document.uri.scheme === "file" && settings.sandboxMode === "workspace-write") this.reloaded(event.document);
      }),
      vscode.workspace.onDidSaveTextDocument((document) => this.saved(document.uri)),
      // A notebook's save writes its path by name too (its JSON: a cell's line a line of the file).
      vscode.workspace.onWillSaveNotebookDocument((event) => {
        if (event.notebook.uri.scheme !== "file" || settings.sandboxMode !== "workspace-write") return;
        event.waitUntil(this.heldForSave(event.notebook.uri));
      }),
      vscode.workspace.onDidSaveNotebookDocument((notebook) => this.saved(notebook.uri)),
      vscode.workspace.onDidOpenTextDocument((document) => this.seen(document, true)),
      vscode.workspace.onDidCloseTextDocument((document) => this.marks.closed(document.uri.toString())),
    ];
    for (const document of vscode.workspace.textDocuments) this.seen(document, false);
  }

  /** Never rejects: a participant that fails or takes over 1.5 s three times is dropped by VS Code for good. */
  private async beforeSave(document: vscode.TextDocument): Promise<void> {
    // Saved between its loading through a link and its tabs closing: the linked file's text would
    // become a workspace file (the link moved aside by the check) or go back through the link;
    // neither. Emptied first: VS Code writes on once the participant took 1.5 s, the hold's time too.
    const key = document.uri.toString();
    await this.checks.get(key);
    if (this.marks.loadedThroughLink(key)) {
      if (await this.emptied(document)) this.marks.savingEmpty(key);
    }
    await this.heldForSave(document.uri);
  }

  /** Holds the sandboxed processes until the save of `uri` is done (or sandbox-hold.ts's limit), its links moved aside. Never rejects. */
  private async heldForSave(uri: vscode.Uri): Promise<void> {
    const key = `save:${uri.toString()}`;
    this.hold.saveBegins(key);
    await this.holdAndCheck(key, [uri.fsPath], "before", "user");
  }

  /**
   * Empties a document being saved by an edit of the guard's own, made again while the user's
   * typing outdates it: edits a save participant returns are dropped by VS Code when the document
   * changed meanwhile (a keystroke during the hold: "concurrent_edits"), and the save writes on.
   */
  private async emptied(document: vscode.TextDocument): Promise<boolean> {
    const message = `Pi: ${document.uri.fsPath} was saved while it showed the file a command's link had led it to: saved empty, so that this file's text stays out of the workspace. Open it again to see the workspace file.`;
    this.log.warn(message);
    void vscode.window.showWarningMessage(notificationText(message));
    for (let tries = 0; tries < 10; tries++) {
      const edit = new vscode.WorkspaceEdit();
      edit.delete(document.uri, new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end));
      if (await vscode.workspace.applyEdit(edit).then((done) => done, () => false)) return true;
    }
    this.log.error(`${document.uri.fsPath} could not be emptied before its save (changed all the time): close it unsaved.`);
    return false;
  }

  loadedThroughLink(uri: vscode.Uri): boolean {
    return this.marks.loadedThroughLink(uri.toString());
  }

  /** Folders a sandboxed agent writes in: where it works, and its own (links on their paths are looked at too). */
  addRoots(roots: SandboxRoots): void {
    for (const folder of roots.workspaces ?? []) this.workspaces.add(folder);
    for (const folder of roots.agentRoots ?? []) this.agentRoots.add(folder);
  }

  /** `when`: "after" a write that was made without the check (the message says it may have gone there). */
  async whileHeld<T>(paths: readonly string[], act: () => Promise<T>, when: Moment = "before", writer: Writer = "pi"): Promise<T> {
    const key = `write:${++this.writes}`;
    await this.holdAndCheck(key, paths, when, writer);
    try {
      return await act();
    } finally {
      this.hold.release(key);
    }
  }

  private async holdAndCheck(key: string, paths: readonly string[], when: Moment, writer: Writer): Promise<void> {
    try {
      // VS Code drops a save participant for good once it took over 1.5 s three times: the check goes on by then, held or not.
      const frozen = await Promise.race([this.hold.take(key), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), HOLD_WAIT_MS))]);
      if (!frozen) this.log.warn(`Writing ${paths.join(", ")}: the sandboxed processes were not held within ${HOLD_WAIT_MS} ms; checked all the same.`);
      else if (frozen.killed > 0) this.log.warn(`Writing ${paths.join(", ")}: ${frozen.killed} sandboxed process(es) or sandboxes killed, for running on while held (woken by another command, or not held still in time).`);
      if (frozen && !frozen.complete) this.log.warn(`Writing ${paths.join(", ")}: not every sandboxed process could be stopped in time (${frozen.stopped} were); checked all the same.`);
      for (const file of paths) this.moveAsidePlantedLinks(file, when, writer);
    } catch (error) {
      this.log.error(`Save guard of ${paths.join(", ")}: ${errorText(error)}`);
    }
  }

  /**
   * VS Code loads an open document again when its file changes, by name: through a link a command
   * just put there (`ln -sfn ~/.aws/credentials x && mv -T x notes.md`) it shows the linked file,
   * and the user's next Ctrl+S would save that text (the link moved aside first) into the workspace,
   * where the sandbox reads it. Such a document's tabs are closed and the link moved aside; a link
   * flipped back meanwhile does not undo that: the document showed the linked file.
   */
  private reloaded(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    const file = document.uri.fsPath;
    const planted = plantedLinkOnWay(file, this.scope(), this.marks.firstSeenOf(key));
    if (!planted) return this.checkLoaded(document);
    if (!this.marks.loadedThroughCommandLink(key)) return;
    // Closed at once, not once the sandbox is held (most of a second with a thousand processes to
    // hold): a Ctrl+S and the keystrokes after it meanwhile raced the save's emptying.
    void closeTabsOf(document.uri).catch((error: unknown) => this.log.error(`Closing ${file}, loaded through a link: ${errorText(error)}`));
    const movedBefore = this.linksMoved;
    const told = () => {
      if (this.linksMoved > movedBefore) return Promise.resolve(); // the move said it all
      const message = `Pi: VS Code loaded ${file} again through a link a command had made to ${planted.leadsTo}, gone again since; its tabs were closed, so that no save puts that file's text in the workspace.`;
      this.log.warn(message);
      void vscode.window.showWarningMessage(notificationText(message));
      return Promise.resolve();
    };
    void this.whileHeld([file], told, "reloaded", "user").catch((error: unknown) => this.log.error(`Moving aside the link at ${file}: ${errorText(error)}`));
  }

  private seen(document: vscode.TextDocument, atOpen: boolean): void {
    if (document.uri.scheme !== "file") return;
    const key = document.uri.toString();
    const real = realPathOrSame(document.uri.fsPath);
    if (!this.marks.loadedThroughLink(key)) return this.marks.seen(key, real, atOpen);
    // Marked: VS Code may have read it through the link. A plain document again once it holds the workspace file's text.
    this.checkLoaded(document, () => this.marks.seen(key, real, atOpen));
  }

  /**
   * Checks a document VS Code just loaded against the workspace file at its path, read as it
   * really is (verified-file.ts: by its real path after the open, in a folder the agents work in;
   * compared in the document's encoding, line ends aside). Holding its text, the document is a
   * plain one (`then`: what follows). A save waits for its document's check.
   */
  private checkLoaded(document: vscode.TextDocument, then?: () => void): void {
    const key = document.uri.toString();
    const file = document.uri.fsPath;
    const read = () => readVerified(file, realFolders([...this.workspaces]), { home: process.env.HOME, agentDir: process.env.PI_CODING_AGENT_DIR }, file);
    const decode = (bytes: Uint8Array) => Promise.resolve(vscode.workspace.decode(bytes, { encoding: document.encoding }));
    const check = fileTextHeld(document, read, decode)
      .then((held) => {
        if (held === "holds") {
          this.marks.loadedPlainly(key);
          return then?.();
        }
        // Leading elsewhere through a command's link now (a link flipped in a loop, there again):
        // marked. Other text alone says nothing: the file changed again since, or the event was an
        // edit (VS Code can tell of an edit before the document is dirty).
        if (held === "elsewhere" && plantedLinkOnWay(file, this.scope(), this.marks.firstSeenOf(key)) && this.marks.loadedThroughCommandLink(key)) {
          this.log.warn(`${file} was loaded again by VS Code while a command's link was on its way: its saves are emptied until it holds the workspace file's text.`);
        }
      })
      .catch((error: unknown) => this.log.error(`Checking ${file} against the workspace file: ${errorText(error)}`))
      .finally(() => {
        if (this.checks.get(key) === check) this.checks.delete(key);
      });
    this.checks.set(key, check);
  }

  private moveAsidePlantedLinks(file: string, when: Moment, writer: Writer): void {
    const scope = this.scope();
    const seen = this.marks.firstSeenOf(vscode.Uri.file(file).toString());
    // Opened through the link is no consent to Pi's write: Pi's own diff may have opened it so.
    const first = seen && writer === "pi" ? { ...seen, atOpen: false } : seen;
    for (let tries = 0; tries < 8; tries++) {
      const planted = plantedLinkOnWay(file, scope, first);
      if (!planted) return;
      const text = readlinkSync(planted.link);
      const to = moveLinkAside(planted.link, path.join(piAgentDir(process.env, os.homedir()), "quarantine"));
      this.linksMoved++;
      const what = `Pi: ${planted.link} had been made a link to ${planted.leadsTo}, outside what the agents' sandboxed commands may write, after a sandboxed agent started`;
      const moved = to === undefined ? "removed (the quarantine folder could not take it)" : "moved aside";
      const outcome = {
        before: `writing it would have written there. The link was ${moved} so that the write stays in the workspace`,
        after: `VS Code saved it without the editor's save participants ("Save without Formatting"), through the link: check ${planted.leadsTo}. The link was ${moved} so that the next save stays in the workspace`,
        reloaded: `VS Code loaded the open document again through it and showed that file: its tabs were closed, so that no save puts that text in the workspace, and the link was ${moved}`,
      }[when];
      const restore = to === undefined ? `ln -s ${shellQuote(text)} ${shellQuote(planted.link)}` : `mv -T ${shellQuote(to)} ${shellQuote(planted.link)}`;
      const message = `${what}; ${outcome} (${to === undefined ? "" : `to ${to}; `}to restore it: ${restore}).`;
      this.log.warn(message);
      // Put back only where nothing took its place: a save writes a plain file there at once.
      if (to === undefined || when !== "reloaded") void vscode.window.showWarningMessage(notificationText(message));
      else void vscode.window.showWarningMessage(notificationText(message), PUT_BACK).then((choice) => choice === PUT_BACK && this.putBack({ link: planted.link, to, text, file }));
    }
  }

  /**
   * The user's word for a link moved aside: put back as it was (the same link text, still in the
   * quarantine: an agent that may write its agent dir could have swapped it), and the document at
   * its path is the user's own through it from then on (planted-link.ts: opened through the link).
   */
  private putBack(moved: { link: string; to: string; text: string; file: string }): void {
    const { link, to, text, file } = moved;
    try {
      putLinkBack(link, to, text);
    } catch (error) {
      const message = `Pi: the link was not put back: ${errorText(error)}.`;
      this.log.error(message);
      void vscode.window.showErrorMessage(notificationText(message));
      return;
    }
    this.log.info(`${link} put back at the user's word (a link to ${text}): saves of ${file} go where it leads.`);
    const key = vscode.Uri.file(file).toString();
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) this.marks.consented(key, realPathOrSame(file));
    else this.marks.loadedPlainly(key);
  }

  private scope(): SaveScope {
    const workspaces = [...new Set([...(vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath), ...this.workspaces])];
    const folders = [...workspaces, ...this.agentRoots];
    const env = homeEnvOf(process.env);
    return {
      folders,
      writable: [...this.workspaces],
      since: this.since,
      offLimits: (real) => protectedReason(real, { workspaces }) ?? (hiddenSecretOf(real, env) ? "a home secret the sandbox hides" : undefined),
    };
  }

  private saved(uri: vscode.Uri): void {
    this.marks.saved(uri.toString(), realPathOrSame(uri.fsPath));
    if (this.hold.saveEnded(`save:${uri.toString()}`)) return;
    // A save that ran no participants ("Save without Formatting"): looked at after, so that the
    // next one does not follow the link too, and the user hears where this one may have gone.
    if (uri.scheme === "file" && settings.sandboxMode === "workspace-write") {
      void this.whileHeld([uri.fsPath], () => Promise.resolve(), "after", "user");
    }
  }

  dispose(): void {
    if (armed === this) armed = undefined;
    this.hold.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** Closes every tab showing `uri` (a text editor, either side of a diff): the document has no unsaved changes. */
async function closeTabsOf(uri: vscode.Uri): Promise<void> {
  const key = uri.toString();
  const shows = (input: unknown) =>
    (input instanceof vscode.TabInputText && input.uri.toString() === key) ||
    (input instanceof vscode.TabInputTextDiff && (input.original.toString() === key || input.modified.toString() === key));
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs.filter((tab) => shows(tab.input)));
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}

/**
 * The review's commands: Keep / Undo for a hunk (a lens, or the cursor), for a file (its row, the
 * diff's title, the palette) and for all files; next / previous change (a plain editor's title:
 * in a diff, VS Code's own arrows do that) and next / previous file (a diff's title); open a file's diff.
 * Nothing is overwritten silently: a hunk the user edited since is refused, and a file the user
 * changed since the agent's last write is undone only after a warning.
 */
import * as vscode from "vscode";
import { Lifetime } from "../lifetime";
import { notificationText } from "../ui/plain-text";
import { conflictReason, fileUndo, keptHunk, textOf, undoneHunk, type FileChange } from "./file-change";
import type { Hunk } from "./hunks";
import { openReviewDiff } from "./review-diff";
import { readCurrent, replaceLines, writeContent } from "./review-io";
import { whileSandboxHeld } from "../save-guard/save-guard";
import { placedHunks, type HunkTarget, type PlacedHunk } from "./review-lenses";
import type { ReviewState } from "./review-state";
import { errorText } from "../../shared/error-text";

const name = (file: string) => notificationText(vscode.workspace.asRelativePath(file));

/** The window's sessions as the review needs them: Keep All / Undo All from the palette take the one the user sees. */
export interface ReviewSessions {
  /** The session the user sees (the palette's commands act on it); `several`: the window has more than one. */
  active(): { id: string; label: string; several: boolean };
  label(id: string): string | undefined;
  /** The conversation (the agent's session id) window session `id` holds now. */
  conversation(id: string): string | undefined;
}

/**
 * Whose changes Keep All / Undo All take: a chat's own session (its changes line passes it), else
 * the session the user sees; `named`: said in the message, when the window has more than one.
 */
function targetOf(sessions: ReviewSessions, arg: unknown): { id: string; named?: string } {
  const asked = (arg as { session?: unknown } | undefined)?.session;
  if (typeof asked === "string") return { id: asked };
  const active = sessions.active();
  return { id: active.id, ...(active.several ? { named: active.label } : {}) };
}
const sameHunk = (a: Hunk, b: Hunk) => JSON.stringify(a) === JSON.stringify(b);

/** The file a command is about: a row of the view, an editor title's resource, else the active editor's file. */
function fileOf(state: ReviewState, arg: unknown): string | undefined {
  if (arg instanceof vscode.Uri) return arg.scheme === "file" || arg.scheme === "pi-review" ? arg.fsPath : undefined;
  const fromRow = (arg as Partial<FileChange> | undefined)?.path;
  if (typeof fromRow === "string") return fromRow;
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri && state.has(uri.fsPath) ? uri.fsPath : undefined;
}

/** The 0-based line where `text` (a tool card's new text) starts in `current`, if it is there. */
function lineOf(current: string, text: unknown): number | undefined {
  if (typeof text !== "string" || text === "") return undefined;
  const at = current.indexOf(text);
  return at === -1 ? undefined : current.slice(0, at).split("\n").length - 1;
}

/** The hunk a command is about: a lens's, else the one at the cursor in the active editor. */
function hunkOf(state: ReviewState, arg: unknown): { path: string; placed: PlacedHunk } | undefined {
  const target = arg as Partial<HunkTarget> | undefined;
  if (typeof target?.path === "string" && target.hunk) {
    const file = target.path;
    const hunk = target.hunk;
    const placed = placedHunks(state, file, textOf(readCurrent(file)) ?? "").find((p) => sameHunk(p.hunk, hunk));
    return placed && { path: file, placed };
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== "file" || !state.has(editor.document.uri.fsPath)) return undefined;
  const line = editor.selection.active.line;
  const file = editor.document.uri.fsPath;
  const placed = placedHunks(state, file, editor.document.getText()).find((p) => line >= p.line && line < p.line + p.span);
  return placed && { path: file, placed };
}

async function keepHunkCommand(state: ReviewState, arg: unknown): Promise<void> {
  const found = hunkOf(state, arg);
  const change = found && state.get(found.path);
  if (!found || !change) return void vscode.window.showInformationMessage("Pi: no change of the agent here.");
  state.update(found.path, { before: keptHunk(change, found.placed.hunk) });
}

async function undoHunkCommand(state: ReviewState, arg: unknown): Promise<void> {
  const found = hunkOf(state, arg);
  const change = found && state.get(found.path);
  if (!found || !change) return void vscode.window.showInformationMessage("Pi: no change of the agent here.");
  const current = textOf(readCurrent(found.path));
  const result = current === undefined ? undefined : undoneHunk(change, found.placed.hunk, current);
  if (!result || result.conflict) {
    return void vscode.window.showWarningMessage(`Pi: this change in ${name(found.path)} was edited since the agent made it, so it was not undone (nothing changed). Edit it by hand, or Undo the whole file.`);
  }
  await replaceLines(found.path, result.line, found.placed.hunk.newLines, found.placed.hunk.oldLines);
  state.noteUndone(found.path);
  state.update(found.path, { agent: result.agent });
}

/**
 * Undoes files; those changed since the agent's last write, and those another session's agent
 * changed too (`owner`: the session undoing), are undone only if the user agrees.
 */
async function undoFiles(state: ReviewState, log: vscode.LogOutputChannel, files: readonly string[], owner?: string): Promise<void> {
  const plans = files.flatMap((file) => {
    const change = state.get(file);
    if (!change) return [];
    const current = readCurrent(file);
    return [{ file, change, current, undo: fileUndo(change, current), shared: owner !== undefined && [...change.owners].some((o) => o !== owner) }];
  });
  const unavailable = plans.filter((p) => p.undo.action === "unavailable");
  const conflicts = plans.filter((p) => p.undo.action !== "unavailable" && p.undo.conflict);
  for (const p of conflicts) log.info(`Review: Undo of ${p.file} asks first: ${conflictReason(p.change, p.current) ?? ""}`);
  const shared = plans.filter((p) => p.undo.action !== "unavailable" && p.shared && !conflicts.includes(p));
  if (conflicts.length > 0 || shared.length > 0) {
    const said = [
      ...(conflicts.length > 0 ? [`${conflicts.map((p) => name(p.file)).join(", ")} changed since the agent's last edit, or was seen created only by its file events.`] : []),
      ...(shared.length > 0 ? [`${shared.map((p) => name(p.file)).join(", ")} was changed by another session's agent too: its changes there are undone as well.`] : []),
    ];
    const undo = "Undo Anyway";
    const answer = await vscode.window.showWarningMessage(`Pi: ${said.join(" ")} Undo puts back the content from before the agent (a created file is deleted), and later changes are lost too.`, { modal: true }, undo);
    if (answer !== undo) return;
  }
  const failed: string[] = [];
  // One hold of the sandboxed processes for them all (each write joins it), not one per file.
  await whileSandboxHeld(
    plans.map((p) => p.file),
    async () => {
      for (const { file, undo } of plans) {
        if (undo.action === "unavailable") continue;
        try {
          await writeContent(file, undo.action === "delete" ? null : undo.content);
          state.noteUndone(file);
          state.remove(file);
        } catch (error) {
          failed.push(`${name(file)} (${notificationText(errorText(error))})`);
        }
      }
    },
  );
  if (unavailable.length > 0) {
    void vscode.window.showWarningMessage(`Pi: ${unavailable.map((p) => name(p.file)).join(", ")} cannot be undone: its content before the change was not recorded (changed by a command). Keep it, or restore it by hand.`);
  }
  if (failed.length > 0) void vscode.window.showErrorMessage(`Pi: could not undo ${failed.join(", ")}`);
}

/** The next (or previous) hunk after the cursor; past the last one, the next file's first. */
async function goToChange(state: ReviewState, direction: 1 | -1): Promise<void> {
  const files = state.files().map((f) => f.path);
  if (files.length === 0) return;
  const editor = vscode.window.activeTextEditor;
  const current = editor?.document.uri.scheme === "file" ? editor.document.uri.fsPath : undefined;
  const at = current ? files.indexOf(current) : -1;
  if (editor && at !== -1) {
    const line = editor.selection.active.line;
    const lines = placedHunks(state, files[at], editor.document.getText()).map((p) => p.line);
    const next = direction === 1 ? lines.find((l) => l > line) : lines.reverse().find((l) => l < line);
    if (next !== undefined) {
      editor.selection = new vscode.Selection(next, 0, next, 0);
      editor.revealRange(new vscode.Range(next, 0, next, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return;
    }
  }
  const file = files[(at === -1 ? (direction === 1 ? 0 : files.length - 1) : at + direction + files.length) % files.length];
  const lines = placedHunks(state, file, textOf(readCurrent(file)) ?? "").map((p) => p.line);
  await openReviewDiff(file, direction === 1 ? lines[0] : lines.at(-1));
}

/** The next (or previous) file under review after the active editor's, opened at its first change. */
async function goToFile(state: ReviewState, direction: 1 | -1): Promise<void> {
  const files = state.files().map((f) => f.path);
  if (files.length === 0) return;
  const uri = vscode.window.activeTextEditor?.document.uri;
  const at = uri?.scheme === "file" ? files.indexOf(uri.fsPath) : -1;
  const file = files[(at === -1 ? (direction === 1 ? 0 : files.length - 1) : at + direction + files.length) % files.length];
  await openReviewDiff(file, placedHunks(state, file, textOf(readCurrent(file)) ?? "")[0]?.line);
}

/** Keep All / Undo All of one session's changes; from the palette (the session the user sees), it says whose. */
async function decideAll(state: ReviewState, sessions: ReviewSessions, log: vscode.LogOutputChannel, arg: unknown, action: "keep" | "undo"): Promise<void> {
  const target = targetOf(sessions, arg);
  const files = state.files(target.id).map((f) => f.path);
  const whose = target.named === undefined ? "" : ` of “${notificationText(target.named)}”`;
  if (files.length === 0) {
    if (target.named !== undefined) void vscode.window.showInformationMessage(`Pi: no changes${whose} to review.`);
    return;
  }
  if (action === "keep") for (const file of files) state.remove(file);
  else await undoFiles(state, log, files, target.id);
  const left = files.filter((file) => !state.has(file)).length;
  if (target.named !== undefined && left > 0) void vscode.window.showInformationMessage(`Pi: ${action === "keep" ? "kept" : "undid"} ${left} file${left === 1 ? "" : "s"}${whose}.`);
}

export function registerReviewCommands(state: ReviewState, sessions: ReviewSessions, log: vscode.LogOutputChannel): vscode.Disposable {
  const lifetime = new Lifetime();
  const command = (id: string, run: (arg: unknown) => Promise<void> | void) =>
    lifetime.add(
      vscode.commands.registerCommand(id, async (arg: unknown) => {
        try {
          await run(arg);
        } catch (error) {
          log.warn(`${id} failed: ${errorText(error)}`);
          void vscode.window.showErrorMessage(`Pi: ${notificationText(errorText(error))}`);
        }
      }),
    );
  command("pi.review.openDiff", async (arg) => {
    const file = fileOf(state, arg);
    if (!file) return;
    const current = textOf(readCurrent(file)) ?? "";
    const near = (arg as { near?: unknown } | undefined)?.near;
    await openReviewDiff(file, lineOf(current, near) ?? placedHunks(state, file, current)[0]?.line);
  });
  command("pi.review.keepHunk", (arg) => keepHunkCommand(state, arg));
  command("pi.review.undoHunk", (arg) => undoHunkCommand(state, arg));
  command("pi.review.keepFile", (arg) => {
    const file = fileOf(state, arg);
    if (file) state.remove(file);
  });
  command("pi.review.undoFile", async (arg) => {
    const file = fileOf(state, arg);
    if (file) await undoFiles(state, log, [file]);
  });
  command("pi.review.keepAll", (arg) => decideAll(state, sessions, log, arg, "keep"));
  command("pi.review.undoAll", (arg) => decideAll(state, sessions, log, arg, "undo"));
  command("pi.review.nextChange", () => goToChange(state, 1));
  command("pi.review.previousChange", () => goToChange(state, -1));
  command("pi.review.nextFile", () => goToFile(state, 1));
  command("pi.review.previousFile", () => goToFile(state, -1));
  return lifetime;
}

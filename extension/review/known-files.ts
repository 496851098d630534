/**
 * Which workspace files exist, kept from one listing at start-up and the file events since: a
 * file event that says "created" may be a command overwriting a file (`sed -i` renames a new file
 * over the old one), and Undo of a file taken for created deletes it. So a file counts as created
 * only when it was not there before; while the listing is not ready, or was cut short, that is
 * not known.
 */
import * as vscode from "vscode";

/** Listing more than this many files is not done in full (their existence is then unknown). */
const MAX_FILES = 100_000;

export class KnownFiles {
  private readonly paths = new Set<string>();
  /** Deleted before the listing came back (which may still hold them). */
  private readonly deletedEarly = new Set<string>();
  private listed = false;
  private complete = false;

  constructor(exclude = "{**/node_modules/**,**/.git/**}") {
    void vscode.workspace.findFiles("**/*", exclude, MAX_FILES + 1).then(
      (uris) => {
        for (const uri of uris) if (!this.deletedEarly.has(uri.fsPath)) this.paths.add(uri.fsPath);
        this.deletedEarly.clear();
        this.listed = true;
        this.complete = uris.length <= MAX_FILES;
      },
      () => undefined,
    );
  }

  /** Whether the file existed before the event being handled; undefined: not known. */
  existed(path: string): boolean | undefined {
    if (this.paths.has(path)) return true;
    return this.listed && this.complete ? false : undefined;
  }

  /** A file event, after it was handled. */
  note(path: string, exists: boolean): void {
    if (exists) {
      this.paths.add(path);
      this.deletedEarly.delete(path);
    } else {
      this.paths.delete(path);
      if (!this.listed) this.deletedEarly.add(path);
    }
  }
}

import type { FirstSeen } from "./planted-link";

/** The most documents marked as loaded through a command's link that are kept. */
const MAX_MARKS = 1_000;

/**
 * What the save guard knows of each open file document (keyed by its URI's text): where its path
 * led when first seen, whether VS Code loaded it again through a command's link (kept across its
 * closing), whether its save was emptied. Free of vscode: the guard feeds it the
 * editor's events, and its rules are unit-tested (document-marks.test.ts).
 */
export class DocumentMarks {
  /** Where each open file document's path led when the guard first saw it. */
  private readonly firstSeen = new Map<string, FirstSeen>();
  /**
   * Documents VS Code loaded again through a command's link (their text is the linked file's):
   * their tabs are being closed; a save meanwhile writes none of that text.
   */
  private readonly throughLink = new Set<string>();
  /** Documents whose save the guard emptied: once saved (empty, in the workspace), they are plain documents again. */
  private readonly savedEmpty = new Set<string>();

  /**
   * A document seen: opened now (`atOpen`) or open already when the guard started. `real`: where
   * its path leads now. One marked as loaded through a command's link stays marked and keeps where
   * its path first led (VS Code may have read it through the link before the link was moved aside
   * and tell of it only after: ci-47, ci-52) until found to hold the workspace file's text
   * (`loadedPlainly`).
   */
  seen(key: string, real: string, atOpen: boolean): void {
    if (!this.throughLink.has(key)) this.firstSeen.set(key, { real, atOpen });
  }

  /** The user put back the link its path leads through (`real`): opened through it, as if by them. */
  consented(key: string, real: string): void {
    this.throughLink.delete(key);
    this.savedEmpty.delete(key);
    this.firstSeen.set(key, { real, atOpen: true });
  }

  firstSeenOf(key: string): FirstSeen | undefined {
    return this.firstSeen.get(key);
  }

  /**
   * A document closed: forgotten, unless it was loaded through a command's link. Closing its tabs
   * (the guard does) can let VS Code drop it, and opening it again (a link, a tab reopened) gives a
   * document whose text may still be the linked file's: it keeps the mark until found to hold the
   * workspace file's text (`loadedPlainly`) or saved empty.
   */
  closed(key: string): void {
    if (!this.throughLink.has(key)) return this.forget(key);
    this.savedEmpty.delete(key); // a save of the closed document that never ended
  }

  loadedThroughLink(key: string): boolean {
    return this.throughLink.has(key);
  }

  /** Found to hold the text of the workspace file at its path (read as it really is: verified-file.ts). */
  loadedPlainly(key: string): void {
    this.throughLink.delete(key);
    this.savedEmpty.delete(key);
  }

  /** Loaded again through a command's link: true the first time (its tabs to be closed, the link moved aside), false while still marked. */
  loadedThroughCommandLink(key: string): boolean {
    if (this.throughLink.has(key)) return false;
    this.throughLink.add(key);
    // Kept past their documents' closing: the oldest of very many (each one a link caught) go.
    if (this.throughLink.size > MAX_MARKS) this.forget(this.throughLink.values().next().value!);
    return true;
  }

  /** Its save is being emptied (it was saved while it showed a linked file). */
  savingEmpty(key: string): void {
    this.savedEmpty.add(key);
  }

  /** Saved. Saved empty into the workspace (the link moved aside first), it shows that file now: the user's from here on. */
  saved(key: string, real: string): void {
    if (!this.savedEmpty.delete(key)) return;
    this.throughLink.delete(key);
    this.firstSeen.set(key, { real, atOpen: false });
  }

  private forget(key: string): void {
    this.firstSeen.delete(key);
    this.throughLink.delete(key);
    this.savedEmpty.delete(key);
  }
}


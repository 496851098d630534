import type { FirstSeen } from "./planted-link";

/**
 * What the save guard knows of each open file document (keyed by its URI's text): where its path
 * led when first seen, whether VS Code loaded it again through a command's link, whether that
 * link is being moved aside, whether its save was emptied. Free of vscode: the guard feeds it the
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
  /**
   * Of those, the ones whose link is being moved aside (the sandbox held first: a second or more
   * with a thousand processes), with how many moves are under way. Closing their tabs can let VS
   * Code drop the document, and one opened again meanwhile is read through the link again: it
   * keeps the mark and where the path first led, so that its save writes none of that text either
   * (ci-47: a Ctrl+S right after the tab closed saved the linked file's text into the workspace).
   */
  private readonly movingAside = new Map<string, number>();
  /** Documents whose save the guard emptied: once saved (empty, in the workspace), they are plain documents again. */
  private readonly savedEmpty = new Set<string>();

  /** A document seen: opened now (`atOpen`) or open already when the guard started. `real`: where its path leads now. */
  seen(key: string, real: string, atOpen: boolean): void {
    // Opened again while its link is being moved aside: not the user opening the linked file, and still marked.
    if (this.movingAside.has(key)) return;
    this.firstSeen.set(key, { real, atOpen });
  }

  firstSeenOf(key: string): FirstSeen | undefined {
    return this.firstSeen.get(key);
  }

  /** A document closed: forgotten, unless its link is being moved aside (opened again meanwhile, it shows the linked file again). */
  closed(key: string): void {
    if (!this.movingAside.has(key)) this.forget(key);
  }

  loadedThroughLink(key: string): boolean {
    return this.throughLink.has(key);
  }

  /** Loaded again from disk with no command's link on its way: its text is the workspace file's. */
  loadedPlainly(key: string): void {
    this.throughLink.delete(key);
  }

  /** Loaded again through a command's link: true the first time (its tabs to be closed, the link moved aside), false while still marked. */
  loadedThroughCommandLink(key: string): boolean {
    if (this.throughLink.has(key)) return false;
    this.throughLink.add(key);
    return true;
  }

  /** A move of its link aside begins (moves of one document can overlap: each is counted). */
  moveAsideBegins(key: string): void {
    this.movingAside.set(key, (this.movingAside.get(key) ?? 0) + 1);
  }

  /** A move of its link aside ended; `isOpen`: whether the document is open now (closed meanwhile, it is forgotten as a close forgets it). */
  moveAsideEnded(key: string, isOpen: () => boolean): void {
    const moving = (this.movingAside.get(key) ?? 1) - 1;
    if (moving > 0) return void this.movingAside.set(key, moving);
    this.movingAside.delete(key);
    if (!isOpen()) this.forget(key);
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

/**
 * The transcript's entries in order. An entry (an item's view, or its placeholder until rendered)
 * is a child of the transcript, or of a history part: the older entries of a long conversation
 * arrive in batches, each kept in one element of its own (transcript-view.ts), so that a change
 * lays out the part it is in and the transcript's few dozen children, not 20,000 siblings.
 */
export const historyPartClass = "history-part";

/** Selects the transcript's entries (relative to the transcript: `:scope` is it). */
export const entrySelector = (entry: string) => `:scope > ${entry}, :scope > .${historyPartClass} > ${entry}`;

const isPart = (element: Element | null): element is HTMLElement => element instanceof HTMLElement && element.classList.contains(historyPartClass);

/** Whether `element` is an entry of `transcript`. */
export function isEntryOf(transcript: HTMLElement, element: Element): boolean {
  const parent = element.parentElement;
  return !isPart(element) && (parent === transcript || (isPart(parent) && parent.parentElement === transcript));
}

/** The first entry from `element` on (itself when an entry; into a part: its first), going forward or back. */
function settle(element: Element | null, forward: boolean): HTMLElement | undefined {
  for (let e = element; e; e = forward ? e.nextElementSibling : e.previousElementSibling) {
    if (!isPart(e)) return e instanceof HTMLElement ? e : undefined;
    const inner = settle(forward ? e.firstElementChild : e.lastElementChild, forward);
    if (inner) return inner;
  }
  return undefined;
}

/** The entry after (or before) `entry`, across history parts. */
export function neighbourEntry(entry: HTMLElement, forward: boolean): HTMLElement | undefined {
  const sibling = forward ? entry.nextElementSibling : entry.previousElementSibling;
  const found = settle(sibling, forward);
  if (found) return found;
  const parent = entry.parentElement;
  return isPart(parent) ? settle(forward ? parent.nextElementSibling : parent.previousElementSibling, forward) : undefined;
}

export const firstEntryOf = (transcript: HTMLElement) => settle(transcript.firstElementChild, true);
export const lastEntryOf = (transcript: HTMLElement) => settle(transcript.lastElementChild, false);

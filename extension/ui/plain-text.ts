import { visibleText } from "../../shared/visible-text";

/**
 * Foreign text (a session name, a model name, an agent's question or message, a file name) put
 * into a string VS Code renders: shown as written, never as markup or a link.
 */

/**
 * For a notification's message: VS Code turns `[label](command:…)` (and https:, file:) in it into
 * a clickable link that runs the command; a space between `]` and `(` keeps it text.
 */
export function notificationText(text: string): string {
  return visibleText(text).replace(/\]\s*\(/g, "] (");
}

/** For a MarkdownString: every ASCII punctuation character backslash-escaped (CommonMark), icons too. */
export function markdownText(text: string): string {
  return visibleText(text).replace(/[!-/:-@[-`{-~]/g, "\\$&");
}

/** For a label that draws `$(name)` as an icon (quick picks, the status bar): a backslash keeps it text. */
export function iconsAsText(text: string): string {
  return text.replace(/\$\(/g, "\\$(");
}

/** For a quick-pick label or title: every character visible, on one line, no icon syntax of its own. */
export function quickPickText(text: string): string {
  return iconsAsText(visibleText(text).replace(/\n/g, ""));
}

/** For a quick-pick row made from foreign text (a message, a session's name): one line of at most `max` characters, escaped as quickPickText. */
export function quickPickLine(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return quickPickText(line.length > max ? `${line.slice(0, max - 1)}…` : line);
}

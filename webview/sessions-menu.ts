import type { FromWebview, SessionCommand } from "../shared/webview-protocol";
import { Picker } from "./picker";

const entries: { command: SessionCommand; label: string; description?: string }[] = [
  { command: "newSession", label: "New Session" },
  { command: "resumeSession", label: "Resume Session…" },
  { command: "forkFromMessage", label: "Fork from Message…", description: "a new session from an earlier message" },
  { command: "rewind", label: "Rewind to Message…", description: "files, conversation or both" },
  { command: "newSessionInTab", label: "New Session in Editor Tab" },
  { command: "openInTerminal", label: "Open in Pi Terminal UI" },
];

/**
 * The header's sessions menu: each entry runs the extension's command of that name for this
 * chat's session (`sessionCommand`). Keyboard use as in the header's pickers.
 */
export function sessionsMenu(host: HTMLElement, button: HTMLElement, post: (message: FromWebview) => void): void {
  const menu = new Picker(host);
  button.addEventListener("click", () => {
    if (menu.isOpen) return menu.close();
    const options = entries.map((e) => ({ value: e.command, label: e.label, ...(e.description ? { description: e.description } : {}) }));
    menu.open(button, "Sessions", options, undefined, (value) => {
      const entry = entries.find((e) => e.command === value);
      if (entry) post({ type: "sessionCommand", command: entry.command });
    }, "menu");
  });
}

// Our default keybindings against the editor's own (its default keybindings file, as
// "Preferences: Open Default Keyboard Shortcuts (JSON)" shows it) and against the keys a user's
// keyboard or OS keeps for itself: Ctrl+Alt is AltGr on Windows (ż, ś, ł, €, [, ], ~ … on
// Polish, German, Czech layouts) and the desktop's on Linux (Ctrl+Alt+L locks the screen, Ctrl+Alt+T
// opens a terminal, Ctrl+Alt+Backspace may end the session); macOS keeps Ctrl+Cmd+F (full screen),
// Ctrl+Cmd+Q (lock) and Ctrl+Cmd+Space (characters).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { printFigures } from "./figures";

interface Binding {
  command: string;
  key: string;
  mac?: string;
  win?: string;
  linux?: string;
  when?: string;
}

const ours = (): Binding[] => {
  const manifest = JSON.parse(fs.readFileSync(path.join(vscode.extensions.getExtension("pi-agent.pi-agent-vscode")?.extensionPath ?? "", "package.json"), "utf8")) as { contributes: { keybindings: Binding[] } };
  return manifest.contributes.keybindings;
};

/** The key one platform gets: its own field, else `key`. */
const keyOn = (binding: Binding, platform: "win" | "linux" | "mac"): string => binding[platform] ?? binding.key;
const normal = (key: string): string => key.toLowerCase().split(" ").map((part) => part.split("+").sort().join("+")).join(" ");

/** Keys the OS or the keyboard keeps (each chord part compared as a set of modifiers and a key). */
const reserved = {
  mac: ["ctrl+cmd+f", "ctrl+cmd+q", "ctrl+cmd+space", "cmd+space", "cmd+tab", "cmd+q", "cmd+h", "cmd+m", "cmd+option+esc", "cmd+option+d"],
  linux: ["ctrl+alt+l", "ctrl+alt+t", "ctrl+alt+backspace", "ctrl+alt+delete", "ctrl+alt+left", "ctrl+alt+right", "ctrl+alt+up", "ctrl+alt+down", "ctrl+alt+d"],
};

describe("keybindings: none of ours takes a key the editor, the keyboard or the OS uses", function () {
  this.timeout(60_000);
  let defaults: Binding[] = [];

  before(async () => {
    await vscode.commands.executeCommand("workbench.action.openDefaultKeybindingsFile");
    const text = vscode.window.activeTextEditor?.document.getText() ?? "";
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    // The file is JSON with comments, one binding per object.
    const objects = text.match(/\{[^{}]*\}/g) ?? [];
    defaults = objects.flatMap((object) => {
      try {
        const parsed = JSON.parse(object.replace(/\/\/.*$/gm, "")) as Binding;
        return typeof parsed.key === "string" && typeof parsed.command === "string" && !parsed.command.startsWith("pi.") && !parsed.command.startsWith("-") ? [parsed] : [];
      } catch {
        return [];
      }
    });
    printFigures(`the editor's default keybindings read: ${defaults.length}`);
    assert.ok(defaults.length > 500, `read ${defaults.length} default keybindings`);
  });

  it("no Ctrl+Alt on Windows and Linux (AltGr, the desktop's keys), nothing macOS keeps", () => {
    for (const binding of ours()) {
      for (const platform of ["win", "linux"] as const) {
        const key = normal(keyOn(binding, platform));
        assert.ok(!key.split(" ").some((part) => part.includes("alt") && part.includes("ctrl")), `${binding.command} takes ${keyOn(binding, platform)} on ${platform}`);
        assert.ok(!reserved.linux.map(normal).includes(key), `${binding.command} takes a key the Linux desktop keeps`);
      }
      const mac = normal(keyOn(binding, "mac"));
      assert.ok(!reserved.mac.map(normal).includes(mac), `${binding.command} takes ${keyOn(binding, "mac")}, which macOS keeps`);
    }
  });

  it("takes no key of the editor's own defaults, nor the first key of one of their chords", () => {
    const taken = new Map<string, string>();
    for (const binding of defaults) {
      const parts = normal(binding.key).split(" ");
      taken.set(parts.join(" "), binding.command);
      if (parts.length > 1) taken.set(parts[0], `${binding.command} (its first key)`);
    }
    // Bindings only where our own view or dialog has the focus may reuse an editor key there.
    const ownFocus = (binding: Binding) => /focusedView == pi\.|pi\.editorDialogActive/.test(binding.when ?? "");
    const clashes = ours().flatMap((binding) => {
      const clash = taken.get(normal(keyOn(binding, "linux")));
      return clash !== undefined && !ownFocus(binding) ? [`${binding.command} ${keyOn(binding, "linux")} = ${clash}`] : [];
    });
    assert.deepEqual(clashes, []);
  });
});

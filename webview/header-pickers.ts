import { cycledPermissionModes, permissionModeInfo, permissionModes, type PermissionMode } from "../shared/protocol/model";
import type { ModelChoices, ThinkingLevelChoices } from "../shared/webview-protocol";
import type { ExtensionChannel } from "./channel";
import { formatTokens } from "./format";
import { Picker } from "./picker";

/**
 * The model and thinking-level pickers in the header: a click asks the extension for the
 * choices (the `models` and `thinkingLevels` requests); its answer opens the list; a pick is
 * sent back (`setModel`, `setThinkingLevel`).
 */
export class HeaderPickers {
  /** The latest question: an answer to an earlier one (the user clicked again) is ignored. */
  private asked = 0;
  private readonly picker: Picker;

  constructor(
    host: HTMLElement,
    private readonly buttons: { model: HTMLElement; thinking: HTMLElement; mode: HTMLElement },
    private readonly channel: ExtensionChannel,
    /** The session's permission mode as the header shows it. */
    private readonly currentMode: () => PermissionMode | undefined,
  ) {
    this.picker = new Picker(host);
    buttons.model.addEventListener("click", () => this.request("model"));
    buttons.thinking.addEventListener("click", () => this.request("thinking"));
    buttons.mode.addEventListener("click", () => this.showModes());
  }

  /** A built-in slash command asked for one of the pickers (/model, /thinking, /mode). */
  open(which: "model" | "thinking" | "mode"): void {
    if (this.picker.isOpen) this.picker.close(false);
    if (which === "mode") this.showModes();
    else this.request(which);
  }

  /** The next mode of the cycle (Ask → Auto-accept edits → Plan → Ask), for the mode key; from Full auto, back to Ask. */
  cycleMode(): void {
    // Pressed again before the agent's new mode came back: step on from the mode just asked for,
    // not from the one still shown (two quick presses went Ask → Auto-edits twice).
    const shown = this.currentMode();
    const pending = this.cycled && this.cycled.mode !== shown && performance.now() - this.cycled.at < 2000 ? this.cycled.mode : undefined;
    const current = pending ?? shown;
    if (!current) return;
    const next = cycledPermissionModes[(cycledPermissionModes.indexOf(current) + 1) % cycledPermissionModes.length];
    this.cycled = { mode: next, at: performance.now() };
    this.channel.post({ type: "setPermissionMode", mode: next });
  }

  /** The mode the key last asked for, and when. */
  private cycled: { mode: PermissionMode; at: number } | undefined;

  /** The modes are known here: the pick goes to the extension, which confirms Full auto first. */
  private showModes(): void {
    if (this.picker.isOpen) return this.picker.close();
    const current = this.currentMode();
    const options = permissionModes.map((m) => ({ value: m, label: permissionModeInfo[m].label, description: `${permissionModeInfo[m].detail}${m === current ? " · current" : ""}` }));
    this.picker.open(this.buttons.mode, "Permission modes", options, current, (value) => {
      const mode = permissionModes.find((m) => m === value);
      if (mode) this.channel.post({ type: "setPermissionMode", mode });
    });
  }

  private showModels(message: ModelChoices): void {
    const key = (provider: string, id: string) => JSON.stringify([provider, id]);
    const current = message.current ? key(message.current.provider, message.current.id) : undefined;
    const options = message.models.map((m) => {
      const value = key(m.provider, m.id);
      const context = m.contextWindow ? ` · ${formatTokens(m.contextWindow)} context` : "";
      return { value, label: m.name || m.id, description: `${m.provider}/${m.id}${context}${value === current ? " · current" : ""}` };
    });
    this.picker.open(this.buttons.model, "Models", options, current, (value) => {
      const [provider, modelId] = JSON.parse(value) as [string, string];
      this.channel.post({ type: "setModel", provider, modelId });
    });
  }

  private showThinkingLevels(message: ThinkingLevelChoices): void {
    const options = message.levels.map((level) => ({ value: level, label: level, ...(level === message.current ? { description: "current" } : {}) }));
    this.picker.open(this.buttons.thinking, "Thinking levels", options, message.current, (value) => {
      const level = message.levels.find((l) => l === value);
      if (level) this.channel.post({ type: "setThinkingLevel", level });
    });
  }

  private request(which: "model" | "thinking"): void {
    if (this.picker.isOpen) return this.picker.close();
    const asked = ++this.asked;
    const current = () => asked === this.asked && !this.picker.isOpen;
    const failed = (error: unknown) => console.warn(`the ${which} choices did not come`, error);
    if (which === "model") this.channel.request("models", {}).then((choices) => current() && this.showModels(choices), failed);
    else this.channel.request("thinkingLevels", {}).then((choices) => current() && this.showThinkingLevels(choices), failed);
  }
}

import type { FromWebview, ToWebview } from "../shared/webview-protocol";
import { Picker } from "./picker";

type ModelsMessage = Extract<ToWebview, { type: "models" }>;
type LevelsMessage = Extract<ToWebview, { type: "thinkingLevels" }>;

/**
 * The model and thinking-level pickers in the header: a click asks the extension for the
 * choices (`requestModels`, `requestThinkingLevels`); its answer opens the list; a pick is sent
 * back (`setModel`, `setThinkingLevel`).
 */
export class HeaderPickers {
  private waitingFor: "model" | "thinking" | undefined;
  private readonly picker: Picker;

  constructor(
    host: HTMLElement,
    private readonly buttons: { model: HTMLElement; thinking: HTMLElement },
    private readonly post: (message: FromWebview) => void,
  ) {
    this.picker = new Picker(host);
    buttons.model.addEventListener("click", () => this.request("model"));
    buttons.thinking.addEventListener("click", () => this.request("thinking"));
  }

  showModels(message: ModelsMessage): void {
    if (this.waitingFor !== "model") return;
    this.waitingFor = undefined;
    const key = (provider: string, id: string) => JSON.stringify([provider, id]);
    const options = message.models.map((m) => ({ value: key(m.provider, m.id), label: m.name || m.id, description: `${m.provider}/${m.id}` }));
    const current = message.current ? key(message.current.provider, message.current.id) : undefined;
    this.picker.open(this.buttons.model, "Models", options, current, (value) => {
      const [provider, modelId] = JSON.parse(value) as [string, string];
      this.post({ type: "setModel", provider, modelId });
    });
  }

  showThinkingLevels(message: LevelsMessage): void {
    if (this.waitingFor !== "thinking") return;
    this.waitingFor = undefined;
    const options = message.levels.map((level) => ({ value: level, label: level }));
    this.picker.open(this.buttons.thinking, "Thinking levels", options, message.current, (value) => {
      const level = message.levels.find((l) => l === value);
      if (level) this.post({ type: "setThinkingLevel", level });
    });
  }

  private request(which: "model" | "thinking"): void {
    if (this.picker.isOpen) return this.picker.close();
    this.waitingFor = which;
    this.post({ type: which === "model" ? "requestModels" : "requestThinkingLevels" });
  }
}

/**
 * A VS Code tool's result (vscode.LanguageModelToolResult's parts) as a host tool's outcome, and
 * a tool's name as the model may see it. Plain data (parts are read by shape, so it is unit-tested).
 */
import type { HostToolOutcome } from "../../shared/rpc/host-tool-registry";

/** The parts VS Code's tools return: text, prompt-tsx (a JSON value), and data (images, JSON, text) from 1.105. */
export function toolOutcome(parts: readonly unknown[]): HostToolOutcome {
  const content: HostToolOutcome["content"] = [];
  for (const part of parts) {
    const p = (typeof part === "object" && part !== null ? part : {}) as { value?: unknown; data?: unknown; mimeType?: unknown };
    if (typeof p.value === "string") content.push({ type: "text", text: p.value });
    else if (p.data instanceof Uint8Array && typeof p.mimeType === "string") {
      if (p.mimeType.startsWith("image/")) content.push({ type: "image", mimeType: p.mimeType, data: Buffer.from(p.data).toString("base64") });
      else content.push({ type: "text", text: Buffer.from(p.data).toString("utf8") });
    } else if (p.value !== undefined) content.push({ type: "text", text: JSON.stringify(p.value) });
  }
  if (content.length === 0) content.push({ type: "text", text: "(the tool returned nothing)" });
  return { content };
}

/** Names a provider accepts for a function (OpenAI, Anthropic): letters, digits, _ and -, at most 64. */
export function modelToolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "tool";
}

/** Names a VS Code tool may not take: Pi's own tools and the editor's (a chosen tool must not stand in for them). */
const reserved = new Set(["read", "bash", "edit", "write", "grep", "find", "ls", "todo", "tool_search"]);

/**
 * Which of the chosen tools (by VS Code name) are offered, under which model name: one whose model
 * name is reserved (`editor_*` too) or already taken by an earlier one is left out, with the reason.
 */
export function offeredTools(names: readonly string[]): { offered: { name: string; modelName: string }[]; refused: { name: string; reason: string }[] } {
  const offered: { name: string; modelName: string }[] = [];
  const refused: { name: string; reason: string }[] = [];
  for (const name of names) {
    const modelName = modelToolName(name);
    if (reserved.has(modelName) || modelName.startsWith("editor_")) refused.push({ name, reason: `"${modelName}" is one of Pi's own tools` });
    else if (offered.some((o) => o.modelName === modelName)) refused.push({ name, reason: `"${modelName}" is taken by another chosen tool` });
    else offered.push({ name, modelName });
  }
  return { offered, refused };
}

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

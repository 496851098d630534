import { permissionModes, permissionModeInfo, type PermissionMode } from "../../shared/protocol";
import type { SlashCommandInfo } from "../../shared/webview-protocol";

/** The chat's own slash commands: what the editor does for this chat's session, with any agent. */
export const builtinCommands: readonly SlashCommandInfo[] = [
  { name: "new", description: "Start a new session", source: "built-in" },
  { name: "resume", description: "Resume a saved session of this workspace", source: "built-in" },
  { name: "fork", description: "A new session from an earlier message", source: "built-in" },
  { name: "rewind", description: "Go back to an earlier message (and its files)", source: "built-in" },
  { name: "compact", description: "Summarise the conversation to free context; text after it says what to keep", source: "built-in" },
  { name: "model", description: "Choose the model (or /model name)", source: "built-in" },
  { name: "thinking", description: "Choose the thinking level", source: "built-in" },
  { name: "mode", description: "Permission mode: ask, edits, plan, auto (or a menu)", source: "built-in" },
  { name: "export", description: "Export the session as HTML", source: "built-in" },
];

/** The built-ins the agent does not shadow (its own command of the same name wins), then the agent's. */
export function withBuiltins(agentCommands: readonly SlashCommandInfo[]): SlashCommandInfo[] {
  const taken = new Set(agentCommands.map((c) => c.name));
  return [...builtinCommands.filter((c) => !taken.has(c.name)), ...agentCommands];
}

export interface BuiltinCall {
  name: string;
  /** The text after the command word, trimmed. */
  argument: string;
}

/** `/name rest` when `name` is a built-in the agent does not shadow; otherwise the text is a prompt. */
export function parseBuiltin(text: string, agentCommands: readonly SlashCommandInfo[]): BuiltinCall | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const name = match[1];
  if (!builtinCommands.some((c) => c.name === name) || agentCommands.some((c) => c.name === name)) return undefined;
  return { name, argument: (match[2] ?? "").trim() };
}

const modeWords: Record<string, PermissionMode> = { ask: "ask", edits: "acceptEdits", "accept-edits": "acceptEdits", acceptedits: "acceptEdits", plan: "plan", auto: "auto", "full-auto": "auto" };

/** `/mode plan`, `/mode edits`, `/mode "Full auto"`…: the mode a word names, if any. */
export function modeNamed(word: string): PermissionMode | undefined {
  const key = word.trim().toLowerCase().replace(/\s+/g, "-");
  if (Object.hasOwn(modeWords, key)) return modeWords[key];
  return permissionModes.find((m) => permissionModeInfo[m].label.toLowerCase().replace(/\s+/g, "-") === key || m.toLowerCase() === key);
}

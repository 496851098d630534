import type { AgentMessage, SystemMessage } from "../../../shared/protocol";
import { currentSystemMessage } from "../compaction/projection";

export interface DeclaredTool {
  name: string;
  description: string;
  parameters: unknown;
}

type ToolDeclaration = { name: string; description: string; parameters: unknown };

/** A tool as the transcript declares it: name, description and a plain-JSON copy of its schema. */
function declaration(tool: DeclaredTool): ToolDeclaration {
  return { name: tool.name, description: tool.description, parameters: JSON.parse(JSON.stringify(tool.parameters ?? {})) as unknown };
}

/**
 * The `role:"system"` message pi 0.87 records before a prompt when the prompt or the tools the
 * model sees differ from what the transcript declares (replaying its system messages): the full
 * loadout when there is none yet, otherwise a patch (changed sections, `null` for removed ones,
 * `toolsAdded` / `toolsRemoved` by name). Undefined when nothing changed.
 */
export function systemMessageUpdate(messages: readonly AgentMessage[], sections: Record<string, string>, tools: readonly DeclaredTool[]): SystemMessage | undefined {
  const current = currentSystemMessage(messages);
  const before = current?.sections ?? {};
  const patch: Record<string, string | null> = {};
  for (const [name, text] of Object.entries(sections)) if (before[name] !== text) patch[name] = text;
  for (const name of Object.keys(before)) if (!(name in sections)) patch[name] = null;

  const declared = new Map((current?.toolsAdded ?? []).map((t) => [String(t.name), JSON.stringify(t)]));
  const wanted = tools.map(declaration);
  const wantedByName = new Map(wanted.map((t) => [t.name, JSON.stringify(t)]));
  const toolsAdded = wanted.filter((t) => declared.get(t.name) !== JSON.stringify(t));
  const toolsRemoved = [...declared].filter(([name, json]) => wantedByName.get(name) !== json).map(([name]) => ({ name }));

  if (Object.keys(patch).length === 0 && toolsAdded.length === 0 && toolsRemoved.length === 0) return undefined;
  return {
    role: "system",
    content: "",
    ...(Object.keys(patch).length ? { sections: patch } : {}),
    ...(toolsAdded.length ? { toolsAdded: toolsAdded as SystemMessage["toolsAdded"] } : {}),
    ...(toolsRemoved.length ? { toolsRemoved } : {}),
    timestamp: Date.now(),
  };
}

/** Our permission modes as ACP session modes (ids a client shows and sends back). */
import type { SessionModeState } from "./sdk";
import type { PermissionMode } from "../../shared/protocol";

const MODES: { id: string; mode: PermissionMode; name: string; description: string }[] = [
  { id: "default", mode: "ask", name: "Ask", description: "Asks before commands and file changes" },
  { id: "auto-edit", mode: "acceptEdits", name: "Auto-edit", description: "Edits files without asking; asks before commands" },
  { id: "plan", mode: "plan", name: "Plan", description: "Read-only tools only: plans, changes nothing" },
  { id: "full-auto", mode: "auto", name: "Full auto", description: "Asks nothing (the sandbox, if on, still applies)" },
];

export const modeId = (mode: PermissionMode): string => MODES.find((m) => m.mode === mode)?.id ?? "default";
export const permissionModeOf = (id: string): PermissionMode | undefined => MODES.find((m) => m.id === id || m.mode === id)?.mode;

export function modeState(mode: PermissionMode): SessionModeState {
  return { currentModeId: modeId(mode), availableModes: MODES.map(({ id, name, description }) => ({ id, name, description })) };
}

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ThinkingLevel } from "../ai/types";
import type { QueueMode } from "../agent/types";

/** The part of pi's settings.json that an RPC host uses (docs/settings.md); other keys are kept but ignored. */
export interface Settings {
  defaultProvider?: string;
  defaultModel?: string;
  defaultThinkingLevel: ThinkingLevel;
  enabledModels?: string[];
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  defaultTools?: string[];
  sessionDir?: string;
  compaction: { enabled: boolean; reserveTokens: number; keepRecentTokens: number };
  retry: { enabled: boolean; maxRetries: number; baseDelayMs: number; maxAgentDelayMs: number };
  /** Proxy URL for model requests, applied as HTTP_PROXY and HTTPS_PROXY; agent-directory settings only. */
  httpProxy?: string;
  /** How long a model request may wait for headers or more of its body (0: no limit). */
  httpIdleTimeoutMs: number;
}

export const defaultSettings: Settings = {
  defaultThinkingLevel: "medium",
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
  retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxAgentDelayMs: 60000 },
  httpIdleTimeoutMs: 300000,
};

export interface LoadedSettings {
  settings: Settings;
  /** Files that could not be read, with the reason: reported, never fatal. */
  problems: string[];
}

/**
 * Agent-directory settings, then the project's `.pi/settings.json` over them (only when the
 * project is trusted). Nested objects merge key by key.
 */
export function loadSettings(agentDir: string, cwd: string, allowProject: boolean): LoadedSettings {
  const problems: string[] = [];
  const read = (file: string): Record<string, unknown> => {
    if (!existsSync(file)) return {};
    try {
      const value = JSON.parse(readFileSync(file, "utf8")) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
      problems.push(`${file}: settings must be a JSON object`);
    } catch (error) {
      problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return {};
  };
  const global = read(join(agentDir, "settings.json"));
  // A project must not send the user's model traffic (and keys) through a proxy of its choosing.
  const { httpProxy: _ignored, ...project } = allowProject ? read(join(cwd, ".pi", "settings.json")) : {};
  return { settings: merge(merge(defaultSettings as unknown as Record<string, unknown>, global), project) as unknown as Settings, problems };
}

function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] =
      value && typeof value === "object" && !Array.isArray(value) && current && typeof current === "object" && !Array.isArray(current)
        ? merge(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

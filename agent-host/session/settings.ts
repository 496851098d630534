import { join } from "node:path";
import { FORBIDDEN_KEYS, isRecord, type SchemaValidator } from "../../shared/foreign-json";
import { readForeignFile } from "../../shared/node/foreign-file";
import { createAjv, precompiledValidator, validatorOptions } from "../../shared/protocol/ajv";
import { SettingsFile } from "./settings-schema";
import type { ThinkingLevel } from "../ai/types";
import type { QueueMode } from "../agent/types";

/** The part of pi's settings.json that an RPC host uses (docs/settings.md; schema in settings-schema.ts). */
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
  /**
   * Codemode (pi 1.x): `only` hides the other tools from the model and lists them in codemode's
   * description; listed declarations share `inlineBudget` estimated tokens (characters / 4).
   */
  codemode: { mode: "on" | "only"; inlineBudget: number };
}

export const defaultSettings: Settings = {
  defaultThinkingLevel: "medium",
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
  retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxAgentDelayMs: 60000 },
  httpIdleTimeoutMs: 300000,
  codemode: { mode: "on", inlineBudget: 3000 },
};

export interface LoadedSettings {
  settings: Settings;
  /** Files that could not be read, and parts of them dropped, with the reason: reported, never fatal. */
  problems: string[];
}

type Data = Record<string, unknown>;

let validate: SchemaValidator | undefined;
/** Precompiled in dist/ (so start-up never loads AJV); from source, compiled on first use. */
function settingsValidator(): SchemaValidator {
  return (validate ??= precompiledValidator("settings.json") ?? createAjv(validatorOptions).compile(SettingsFile()));
}

/** One settings file through the foreign-JSON door: inert, checked, what does not fit dropped. */
function readSettingsFile(file: string, problems: string[]): Data {
  return readForeignFile<Data>(file, settingsValidator(), problems);
}

/**
 * Agent-directory settings, then the project's `.pi/settings.json` over them (only when the
 * project is trusted). Nested objects merge key by key.
 */
export function loadSettings(agentDir: string, cwd: string, allowProject: boolean): LoadedSettings {
  const problems: string[] = [];
  const global = readSettingsFile(join(agentDir, "settings.json"), problems);
  const projectFile = join(cwd, ".pi", "settings.json");
  const project = allowProject ? readSettingsFile(projectFile, problems) : {};
  // A project must not send the user's model traffic (and keys) through a proxy of its choosing.
  if (Object.hasOwn(project, "httpProxy")) {
    delete project.httpProxy;
    problems.push(`${projectFile}: httpProxy ignored (only the user's settings.json may set it)`);
  }
  return { settings: merge(merge(defaultSettings as unknown as Data, global), project) as unknown as Settings, problems };
}

/**
 * `over` merged onto `base` into a new null-prototype object: own keys only, so no key of either
 * (not even one that slipped past the door) can set or reach a prototype. It recurses only where
 * both sides hold an object (as deep as the defaults and the user's file go), never down a value
 * only one side has: a project's 100,000-deep object is taken as it is.
 */
function merge(base: Data, over: Data): Data {
  const out = Object.create(null) as Data;
  for (const source of [base, over]) {
    for (const key of Object.keys(source)) {
      if (FORBIDDEN_KEYS.has(key)) continue;
      const value = source[key];
      const current = Object.hasOwn(out, key) ? out[key] : undefined;
      out[key] = isRecord(value) && isRecord(current) ? merge(current, value) : value;
    }
  }
  return out;
}

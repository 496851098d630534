import * as fs from "node:fs";
import { ConfigError, parseJsonText } from "./models-json";

/** A key pi keeps for a provider, and the environment it goes with. */
export interface StoredKey {
  key: string;
  env?: Record<string, string>;
}

/** `api_key` entries of pi's auth.json (OAuth entries are not usable here and are skipped). */
export function loadAuthJson(file: string, errors: ConfigError[]): Map<string, StoredKey> {
  const keys = new Map<string, StoredKey>();
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") errors.push(new ConfigError(file, undefined, `cannot read: ${(error as Error).message}`));
    return keys;
  }
  if (!text.trim()) return keys;
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    errors.push(new ConfigError(file, undefined, parsed.error));
    return keys;
  }
  errors.push(...parsed.notices.map((notice) => new ConfigError(file, undefined, notice)));
  if (typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value)) {
    errors.push(new ConfigError(file, undefined, "must be a JSON object keyed by provider"));
    return keys;
  }
  for (const [provider, entry] of Object.entries(parsed.value as Record<string, unknown>)) {
    const e = entry as { type?: unknown; key?: unknown; env?: unknown } | null;
    if (typeof e !== "object" || e === null || e.type !== "api_key") continue;
    if (typeof e.key !== "string" || !e.key) {
      errors.push(new ConfigError(file, `${provider}.key`, "must be a non-empty string"));
      continue;
    }
    const env =
      typeof e.env === "object" && e.env !== null
        ? Object.fromEntries(Object.entries(e.env as Record<string, unknown>).filter((kv): kv is [string, string] => typeof kv[1] === "string"))
        : undefined;
    keys.set(provider, { key: e.key, env });
  }
  return keys;
}

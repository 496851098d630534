/**
 * Resolving a `--model` pattern to a model, as pi 0.87.1 does (core/model-resolver):
 * "id", "provider/id", either with ":<thinking>", and otherwise a fuzzy match on id or name.
 *
 * 1. With an explicit provider, only its models are candidates (a "provider/" prefix is dropped).
 *    Without one, a prefix before the first "/" that names a provider selects it.
 * 2. Otherwise an exact id (or provider/id) across all providers wins; when it exists in several,
 *    the only usable one (credentials, or a local server) wins, else the pattern is ambiguous.
 * 3. A pattern is tried whole first, so ids with colons (OpenRouter's "x:batch", Ollama's
 *    "qwen:7b") work; failing that, a valid thinking level after the last ":" is split off.
 * 4. Fuzzy: case-insensitive substring of id or name; aliases (no -YYYYMMDD date) are preferred
 *    to dated ids, and among those the highest id in reverse lexical order.
 */
import { isThinkingLevel } from "../thinking";
import type { Model, ThinkingLevel } from "../types";

export type ModelErrorCode = "unknown_provider" | "unknown_model" | "ambiguous_model" | "no_api_key" | "api_key_failed";

export class ModelRegistryError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ModelRegistryError";
  }
}

export interface ResolvedModel {
  model: Model;
  /** The level from a ":<thinking>" suffix, as written (clamp it to the model before use). */
  thinkingLevel?: ThinkingLevel;
  /** Set when the model was not found and a custom id was accepted (`allowUnknownId`). */
  warning?: string;
}

export interface ResolveOptions {
  /** Like pi's --provider: restricts the search to this provider. */
  provider?: string;
  /**
   * Accept an unknown id on a known provider, as pi does: a copy of one of its models with that
   * id (and a warning). Off by default: an unknown model is an error.
   */
  allowUnknownId?: boolean;
}

const lower = (s: string) => s.toLowerCase();
const list = (items: string[], max = 15) => (items.length > max ? `${items.slice(0, max).join(", ")}, … (${items.length - max} more)` : items.join(", "));
const canonical = (m: Model) => `${m.provider}/${m.id}`;

/** Ids ending in a date (-20250929) are snapshots; everything else (and "-latest") is an alias. */
function isAlias(id: string): boolean {
  return id.endsWith("-latest") || !/-\d{8}$/.test(id);
}

/** An exact "provider/id" or "id" match (case-insensitive); undefined when absent or ambiguous. */
function exactMatch(reference: string, models: readonly Model[]): Model | undefined {
  const ref = lower(reference.trim());
  if (!ref) return undefined;
  const byCanonical = models.filter((m) => lower(canonical(m)) === ref);
  if (byCanonical.length > 0) return byCanonical.length === 1 ? byCanonical[0] : undefined;
  const byId = models.filter((m) => lower(m.id) === ref);
  return byId.length === 1 ? byId[0] : undefined;
}

function fuzzyMatch(pattern: string, models: readonly Model[]): Model | undefined {
  const exact = exactMatch(pattern, models);
  if (exact) return exact;
  const p = lower(pattern);
  const matches = models.filter((m) => lower(m.id).includes(p) || lower(m.name).includes(p));
  if (matches.length === 0) return undefined;
  const aliases = matches.filter((m) => isAlias(m.id));
  const pool = aliases.length > 0 ? aliases : matches;
  return [...pool].sort((a, b) => b.id.localeCompare(a.id))[0];
}

/** Whole pattern first; then "prefix:level" with a valid level. An invalid suffix never matches. */
function matchWithThinking(pattern: string, models: readonly Model[]): { model: Model; thinkingLevel?: ThinkingLevel } | undefined {
  const model = fuzzyMatch(pattern, models);
  if (model) return { model };
  const colon = pattern.lastIndexOf(":");
  if (colon < 0) return undefined;
  const suffix = pattern.slice(colon + 1);
  if (!isThinkingLevel(suffix)) return undefined;
  const inner = matchWithThinking(pattern.slice(0, colon), models);
  return inner ? { model: inner.model, thinkingLevel: suffix } : undefined;
}

/**
 * Resolves `pattern` against `models`. `usable(model)` tells which models can be used now (their
 * provider has credentials or they need none); it breaks ties between providers. Throws ModelRegistryError for an unknown provider,
 * an unknown model or an ambiguous id.
 */
export function resolveModelPattern(pattern: string, models: readonly Model[], usable: (model: Model) => boolean, options: ResolveOptions = {}): ResolvedModel {
  const input = pattern.trim();
  if (!input) throw new ModelRegistryError("unknown_model", "No model given");
  const providers = new Map<string, string>();
  for (const m of models) providers.set(lower(m.provider), m.provider);
  const known = () => list([...new Set(models.map((m) => m.provider))], 40);

  let provider: string | undefined;
  if (options.provider !== undefined) {
    provider = providers.get(lower(options.provider));
    if (!provider) throw new ModelRegistryError("unknown_provider", `Unknown provider "${options.provider}" (known: ${known()})`);
  }

  let rest = input;
  let inferred = false;
  if (provider) {
    if (lower(input).startsWith(lower(`${provider}/`))) rest = input.slice(provider.length + 1);
  } else {
    const slash = input.indexOf("/");
    const named = slash > 0 ? providers.get(lower(input.slice(0, slash))) : undefined;
    if (named) {
      provider = named;
      rest = input.slice(slash + 1);
      inferred = true;
    } else {
      const exact = models.filter((m) => lower(m.id) === lower(input) || lower(canonical(m)) === lower(input));
      if (exact.length === 1) return { model: exact[0] };
      if (exact.length > 1) {
        const withAuth = exact.filter(usable);
        if (withAuth.length === 1) return { model: withAuth[0] };
        const names = exact.map(canonical).sort().join(", ");
        const hint = withAuth.length === 0 ? "none of them has credentials" : "several of them are usable";
        throw new ModelRegistryError("ambiguous_model", `Model "${input}" is ambiguous: ${names} (${hint}); use provider/id`);
      }
    }
  }

  const candidates = provider ? models.filter((m) => m.provider === provider) : models;
  const found = matchWithThinking(rest, candidates);
  if (found) {
    if (inferred && !usable(found.model)) {
      // "xiaomi/mimo" may be a literal id on another (authenticated) provider.
      const raw = models.filter((m) => lower(m.id) === lower(input) && m !== found.model && usable(m));
      if (raw.length === 1) return { model: raw[0] };
    }
    return found;
  }
  if (inferred) {
    // "openai/gpt-4o:extended" looks like provider/id but may be an OpenRouter id.
    const whole = matchWithThinking(input, models);
    if (whole) return whole;
  }
  if (provider && options.allowUnknownId) {
    const colon = rest.lastIndexOf(":");
    const suffix = colon >= 0 ? rest.slice(colon + 1) : "";
    const thinkingLevel = isThinkingLevel(suffix) ? suffix : undefined;
    const id = thinkingLevel ? rest.slice(0, colon) : rest;
    const template = models.find((m) => m.provider === provider);
    if (template && id) {
      const model: Model = { ...template, id, name: id, ...(thinkingLevel && thinkingLevel !== "off" ? { reasoning: true } : {}) };
      return { model, thinkingLevel, warning: `Model "${id}" not found for provider "${provider}": using it as a custom model id` };
    }
  }
  if (provider) {
    throw new ModelRegistryError("unknown_model", `Unknown model "${rest}" for provider "${provider}" (its models: ${list(candidates.map((m) => m.id))})`);
  }
  const slash = input.indexOf("/");
  const hint = slash > 0 ? `; there is no provider "${input.slice(0, slash)}" (known: ${known()})` : "";
  throw new ModelRegistryError("unknown_model", `Unknown model "${input}"${hint}`);
}

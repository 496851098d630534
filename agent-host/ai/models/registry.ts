/**
 * The models the agent host knows (built-in catalogue + pi's models.json) and their credentials.
 *
 * Key sources, first wins (pi 0.87.1, docs/models.md): a runtime key (`--api-key`), an `api_key`
 * entry in `<agentDir>/auth.json`, `apiKey` in models.json, the provider's environment variables.
 * A model whose baseUrl is on this machine (localhost, 127.x, ::1) needs no key; pi instead
 * requires a dummy `apiKey` for such models. Nothing here throws at creation: file problems are
 * collected in `errors` and the rest keeps working.
 */
import * as os from "node:os";
import * as path from "node:path";
import type { Model } from "../types";
import {
  envApiKey,
  isValueConfigured,
  missingKeyHint,
  resolveConfigValue,
  shellCommandRunner,
  type CommandRunner,
  type Env,
} from "./api-keys";
import { piAgentDir } from "../../../shared/node/project-trust";
import { builtinModels } from "./catalogue";
import { loadAuthJson, type StoredKey } from "./auth-json";
import { applyProviderConfig, ConfigError, configuredHeaders, loadModelsJson, type ProviderConfig } from "./models-json";
import { ModelRegistryError, resolveModelPattern, type ResolvedModel, type ResolveOptions } from "./resolve";
import { errorText } from "../../../shared/error-text";

export { ConfigError } from "./models-json";
export { ModelRegistryError, type ResolvedModel, type ResolveOptions } from "./resolve";

export interface ModelRegistryOptions {
  /** Pi's agent directory; default `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir?: string;
  /** Environment for key variables and `$VAR` references; default `process.env`. */
  env?: Env;
  /** Keys that win over every other source, by provider (pi's `--api-key`). */
  apiKeys?: Readonly<Record<string, string>>;
  /** How `!command` values run; `false` refuses them (default: the shell, 10 s timeout). */
  commands?: CommandRunner | false;
  /** The built-in models (default: the catalogue). */
  builtins?: readonly Model[];
  /**
   * Providers in models.json's form from elsewhere than the file (the editor's gateway: VS Code's
   * models), already checked (checkProviders); each wins over a models.json provider of its name.
   */
  extraProviders?: ReadonlyMap<string, ProviderConfig>;
}

/** What a request needs besides the model: the key and extra headers, all resolved. */
export interface RequestAuth {
  apiKey?: string;
  headers?: Record<string, string>;
}

export interface ModelRegistry {
  readonly agentDir: string;
  readonly modelsJsonPath: string;
  /** Problems found in models.json and auth.json (each names the file and the place in it). */
  readonly errors: readonly ConfigError[];
  /** Every model, built-in and configured, by provider. */
  all(): Model[];
  /** Models that can be used now: their provider has credentials, or they run on this machine. */
  available(): Model[];
  /** Provider names, in catalogue order, then models.json order. */
  providers(): string[];
  find(provider: string, id: string): Model | undefined;
  /** Like find, but an unknown provider or model is a ModelRegistryError. */
  get(provider: string, id: string): Model;
  /** Pi's --model forms: "id", "provider/id", "provider/id:thinking", fuzzy id/name. */
  resolve(pattern: string, options?: ResolveOptions): ResolvedModel;
  /** Whether a key is configured for `provider` (without running any command). */
  hasAuth(provider: string): boolean;
  /** Whether requests to `model` need an API key (not for local servers). */
  needsApiKey(model: Model): boolean;
  /** The resolved key; undefined only when the model needs none. Throws ModelRegistryError. */
  apiKeyFor(model: Model): Promise<string | undefined>;
  /** Key plus the configured headers (`$VAR`/`!command` resolved, `authHeader` applied). */
  requestAuth(model: Model): Promise<RequestAuth>;
  /** Re-reads models.json and auth.json. */
  reload(): void;
  /**
   * Pi's `registerProvider(name, { baseUrl, headers, apiKey })` for an existing provider: its
   * models keep their ids and settings; `baseUrl` replaces every model's, `headers` add to the
   * configured ones, `apiKey` (pi's value syntax) wins over every source but `--api-key`.
   * Undefined removes the override. Kept across reload(). False (nothing done) for a provider
   * that has no models.
   */
  overrideProvider(provider: string, override: ProviderOverride | undefined): boolean;
}

export interface ProviderOverride {
  baseUrl?: string;
  headers?: Readonly<Record<string, string>>;
  apiKey?: string;
}

export function defaultAgentDir(env: Env = process.env): string {
  return piAgentDir(env, os.homedir());
}

/** localhost, 127.0.0.0/8, ::1, 0.0.0.0 and *.localhost. */
export function isLocalBaseUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || host === "0.0.0.0" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Freezes `value` and everything in it; iterative, since models.json data may nest as deep as JSON.parse allows. */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== "object" || item === null || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const child of Object.values(item)) stack.push(child);
  }
  return value;
}

export function createModelRegistry(options: ModelRegistryOptions = {}): ModelRegistry {
  const env: Env = options.env ?? process.env;
  const agentDir = options.agentDir ?? defaultAgentDir(env);
  const modelsJsonPath = path.join(agentDir, "models.json");
  const authJsonPath = path.join(agentDir, "auth.json");
  const runner = options.commands === false ? undefined : (options.commands ?? shellCommandRunner);
  // Own keys only: a provider id (from models.json or the wire) may be `__proto__` or `toString`.
  const runtimeKeys = new Map(Object.entries(options.apiKeys ?? {}));
  const builtins = options.builtins ?? builtinModels;

  let errors: ConfigError[] = [];
  let configs = new Map<string, ProviderConfig>();
  let stored = new Map<string, StoredKey>();
  let models: Model[] = [];
  let byProvider = new Map<string, Model[]>();
  const overrides = new Map<string, ProviderOverride>();
  /** auth.json commands run once per process (pi caches them); models.json ones on each use. */
  const storedCommandCache = new Map<string, Promise<string>>();

  function load(): void {
    errors = [];
    const json = loadModelsJson(modelsJsonPath);
    errors.push(...json.errors);
    configs = options.extraProviders?.size ? new Map([...json.providers, ...options.extraProviders]) : json.providers;
    stored = loadAuthJson(authJsonPath, errors);
    const grouped = new Map<string, Model[]>();
    for (const model of builtins) {
      const list = grouped.get(model.provider) ?? [];
      list.push(model);
      grouped.set(model.provider, list);
    }
    for (const provider of configs.keys()) if (!grouped.has(provider)) grouped.set(provider, []);
    byProvider = new Map();
    for (const [provider, base] of grouped) {
      const config = configs.get(provider);
      const configuredList = config ? applyProviderConfig(provider, base, config, modelsJsonPath, errors).map(deepFreeze) : base;
      const baseUrl = overrides.get(provider)?.baseUrl;
      const list = baseUrl ? configuredList.map((model) => deepFreeze({ ...model, baseUrl })) : configuredList;
      if (list.length > 0) byProvider.set(provider, list);
    }
    models = [...byProvider.values()].flat();
    storedCommandCache.clear();
  }
  load();

  const envFor = (provider: string): Env => {
    const extra = stored.get(provider)?.env;
    return extra ? { ...env, ...extra } : env;
  };

  function hasAuth(provider: string): boolean {
    if (runtimeKeys.get(provider)) return true;
    const overridden = overrides.get(provider)?.apiKey;
    if (overridden !== undefined && isValueConfigured(overridden, envFor(provider))) return true;
    const entry = stored.get(provider);
    if (entry && isValueConfigured(entry.key, envFor(provider))) return true;
    const configured = configs.get(provider)?.apiKey;
    if (configured !== undefined && isValueConfigured(configured, envFor(provider))) return true;
    return envApiKey(provider, envFor(provider)) !== undefined;
  }

  const needsApiKey = (model: Model) => model.api !== "faux" && !isLocalBaseUrl(model.baseUrl);

  function failed(error: unknown): never {
    throw new ModelRegistryError("api_key_failed", errorText(error));
  }

  async function apiKeyFor(model: Model): Promise<string | undefined> {
    const provider = model.provider;
    const runtime = runtimeKeys.get(provider);
    if (runtime) return runtime;
    const providerEnv = envFor(provider);
    const what = `API key for provider "${provider}"`;
    const overridden = overrides.get(provider)?.apiKey;
    if (overridden !== undefined) return resolveConfigValue(overridden, providerEnv, `${what} (registerProvider)`, runner).catch(failed);
    const entry = stored.get(provider);
    if (entry) {
      if (entry.key.startsWith("!")) {
        let pending = storedCommandCache.get(entry.key);
        if (!pending) {
          pending = resolveConfigValue(entry.key, providerEnv, `${what} (auth.json)`, runner);
          storedCommandCache.set(entry.key, pending);
          // A failure is remembered too, as pi does, until reload().
        }
        return pending.catch(failed);
      }
      return resolveConfigValue(entry.key, providerEnv, `${what} (auth.json)`).catch(failed);
    }
    const configured = configs.get(provider)?.apiKey;
    if (configured !== undefined) return resolveConfigValue(configured, providerEnv, `${what} (models.json)`, runner).catch(failed);
    const fromEnv = envApiKey(provider, providerEnv);
    if (fromEnv) return fromEnv.key;
    if (!needsApiKey(model)) return undefined;
    throw new ModelRegistryError("no_api_key", `No API key for provider ${provider}: ${missingKeyHint(provider)}`);
  }

  async function requestAuth(model: Model): Promise<RequestAuth> {
    const apiKey = await apiKeyFor(model);
    const config = configs.get(model.provider);
    const extra = overrides.get(model.provider)?.headers;
    const raw = extra ? { ...configuredHeaders(config, model.id), ...extra } : configuredHeaders(config, model.id);
    let headers: Record<string, string> | undefined;
    if (raw) {
      headers = {};
      for (const [name, value] of Object.entries(raw)) {
        headers[name] = await resolveConfigValue(value, envFor(model.provider), `header "${name}" for ${model.provider}/${model.id}`, runner).catch(failed);
      }
    }
    if (config?.authHeader) {
      if (!apiKey) throw new ModelRegistryError("no_api_key", `No API key for provider ${model.provider} (authHeader is set): ${missingKeyHint(model.provider)}`);
      headers = { ...headers, Authorization: `Bearer ${apiKey}` };
    }
    return { ...(apiKey !== undefined ? { apiKey } : {}), ...(headers ? { headers } : {}) };
  }

  function find(provider: string, id: string): Model | undefined {
    const list = byProvider.get(provider) ?? byProvider.get([...byProvider.keys()].find((p) => p.toLowerCase() === provider.toLowerCase()) ?? "");
    return list?.find((m) => m.id === id) ?? list?.find((m) => m.id.toLowerCase() === id.toLowerCase());
  }

  return {
    agentDir,
    modelsJsonPath,
    get errors() {
      return errors;
    },
    all: () => [...models],
    available: () => models.filter((m) => !needsApiKey(m) || hasAuth(m.provider)),
    providers: () => [...byProvider.keys()],
    find,
    get(provider, id) {
      const found = find(provider, id);
      if (found) return found;
      if (![...byProvider.keys()].some((p) => p.toLowerCase() === provider.toLowerCase())) {
        throw new ModelRegistryError("unknown_provider", `Unknown provider "${provider}" (known: ${[...byProvider.keys()].join(", ")})`);
      }
      throw new ModelRegistryError("unknown_model", `Model not found: ${provider}/${id}`);
    },
    resolve: (pattern, resolveOptions) => resolveModelPattern(pattern, models, (m) => !needsApiKey(m) || hasAuth(m.provider), resolveOptions),
    hasAuth,
    needsApiKey,
    apiKeyFor,
    requestAuth,
    reload: load,
    overrideProvider(provider, override) {
      if (!byProvider.has(provider)) return false;
      if (override) overrides.set(provider, override);
      else overrides.delete(provider);
      load();
      return true;
    },
  };
}

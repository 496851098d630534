/**
 * The models a host can use: the registry (built-in catalogue, models.json, keys from the
 * environment, the editor's secrets, `--api-key`), the model and thinking level to start with
 * (options, then settings, then the first available), and the scope cycle_model goes through.
 */
import { createModelRegistry, type ModelRegistry } from "../ai/models/registry";
import { clampThinkingLevel, isThinkingLevel } from "../ai/thinking";
import type { Model, ThinkingLevel } from "../ai/types";
import type { Settings } from "../session/settings";
import type { CliOptions } from "./cli-options";
import { checkProviders } from "../ai/models/models-json";
import { gatewayProviders, gatewayRoutes, MODEL_GATEWAY_ENV, type GatewayRoute } from "./secret-env";
import type { HostRuntime } from "./runtime";
import { errorText } from "../../shared/error-text";

/** Stands in while no model is configured: a prompt then fails with a clear message. */
export const NO_MODEL: Model = {
  id: "none", name: "No model", api: "faux", provider: "none", baseUrl: "", reasoning: false, input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 0, maxTokens: 0,
};

export interface ModelSetup {
  registry: ModelRegistry;
  model: Model;
  thinkingLevel: ThinkingLevel;
  models: HostRuntime["models"];
}

export interface ModelSources {
  agentDir: string;
  env: NodeJS.ProcessEnv;
  /** API keys kept out of `env` (and so out of every child process): for the registry only. */
  secretEnv?: Record<string, string>;
  warn(message: string): void;
}

export function setUpModels(options: CliOptions, settings: Settings, sources: ModelSources): ModelSetup {
  const { agentDir, env, secretEnv, warn } = sources;
  const apiKeys = options.apiKey && options.provider ? { apiKeys: { [options.provider]: options.apiKey } } : {};
  // The providers the editor's gateway serves itself (VS Code's models), beside models.json's.
  const served = secretEnv ? checkProviders(MODEL_GATEWAY_ENV, gatewayProviders(secretEnv)) : undefined;
  served?.errors.forEach((e) => warn(e.message));
  const extraProviders = served?.providers.size ? { extraProviders: served.providers } : {};
  const registry = createModelRegistry({ agentDir, env: secretEnv ? { ...env, ...secretEnv } : env, ...apiKeys, ...extraProviders });
  registry.errors.forEach((e) => warn(e.message));
  if (secretEnv) pointAtGateway(registry, gatewayRoutes(secretEnv));
  const { model, thinkingLevel: suffixLevel } = pickModel(registry, options, settings.defaultProvider, settings.defaultModel, warn);
  const requested = options.thinking ?? suffixLevel ?? settings.defaultThinkingLevel;
  const thinkingLevel = clampThinkingLevel(isThinkingLevel(requested) ? requested : "medium", model);
  const scoped = options.models ?? settings.enabledModels;
  const models: HostRuntime["models"] = {
    available: () => registry.available(),
    find: (provider, id) => registry.find(provider, id),
    scoped: () => (scoped ? scoped.flatMap((p) => tryResolve(registry, p)) : registry.available()),
    hasScope: scoped !== undefined,
    overrideProvider: (provider, override) => registry.overrideProvider(provider, override),
  };
  return { registry, model, thinkingLevel, models };
}

/**
 * Each provider the editor's gateway serves is re-pointed at it (as pi's registerProvider with a
 * baseUrl does), keeping the path of its own base URL: the key variable holds only the token.
 */
function pointAtGateway(registry: ModelRegistry, routes: ReadonlyMap<string, GatewayRoute>): void {
  for (const [provider, route] of routes) {
    const model = registry.all().find((m) => m.provider === provider);
    if (!model) continue;
    let own: URL;
    try {
      own = new URL(model.baseUrl);
    } catch {
      continue;
    }
    if (own.origin !== route.origin) continue; // not where the editor routes this provider
    registry.overrideProvider(provider, { baseUrl: `${route.gateway}${own.pathname.replace(/\/+$/, "")}` });
  }
}

function tryResolve(registry: ModelRegistry, pattern: string): Model[] {
  try {
    return [registry.resolve(pattern).model];
  } catch {
    return [];
  }
}

function pickModel(registry: ModelRegistry, options: CliOptions, defaultProvider: string | undefined, defaultModel: string | undefined, warn: (m: string) => void): { model: Model; thinkingLevel?: ThinkingLevel } {
  const pattern = options.model
    ? options.provider && !options.model.includes("/") ? `${options.provider}/${options.model}` : options.model
    : defaultModel
      ? defaultProvider ? `${defaultProvider}/${defaultModel}` : defaultModel
      : undefined;
  if (pattern) {
    try {
      const resolved = registry.resolve(pattern);
      if (resolved.warning) warn(resolved.warning);
      return { model: resolved.model, ...(resolved.thinkingLevel ? { thinkingLevel: resolved.thinkingLevel } : {}) };
    } catch (error) {
      warn(errorText(error));
      if (options.model) return { model: NO_MODEL };
    }
  }
  const available = registry.available().filter((m) => !options.provider || m.provider === options.provider);
  return { model: available[0] ?? NO_MODEL };
}

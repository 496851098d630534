/**
 * Pi's models.json: custom providers and models, and overrides of built-in ones.
 *
 * The file is read as pi reads it (a BOM, `//` and block comments and trailing commas are
 * tolerated) and checked against models-json-schema.ts, one provider at a time: a bad provider entry
 * or model is reported (file and path inside it) and skipped, everything else still loads.
 * Applying it follows pi 0.87.1 (`provider-composer`): a provider's `baseUrl` and `compat` apply to
 * all its models; `models` adds or replaces models by id (missing fields get pi's defaults);
 * `modelOverrides` then patch existing models by id (unknown ids are ignored).
 */
import * as fs from "node:fs";
import type { default as Ajv, ErrorObject, ValidateFunction } from "ajv";
import { createAjv, precompiledValidator, validatorOptions } from "../../../shared/protocol/ajv";
import type { TSchema } from "@sinclair/typebox";
import { knownApis, type Api, type Model } from "../types";
import { parseJsonText } from "./json-text";
import { ModelsFile, ProviderConfig, type ModelDefinition, type ModelOverride } from "./models-json-schema";

export { ProviderConfig, type ModelDefinition, type ModelOverride } from "./models-json-schema";

// ---------------------------------------------------------------------------------------------
// Errors

/** A problem in a configuration file: which file, where in it, and what is wrong. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    /** Dotted path inside the file, e.g. `providers.ollama.models[0].contextWindow`; absent for the whole file. */
    readonly where: string | undefined,
    readonly problem: string,
  ) {
    super(`${file}${where ? `: ${where}` : ""}: ${problem}`);
    this.name = "ConfigError";
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

export { parseJsonText, stripJsonExtras } from "./json-text";

let ajv: Ajv | undefined;
const compiled = new Map<TSchema, ValidateFunction>();
/** Validators are compiled on first use: start-up without a models.json never pays for them. */
function validator(schema: TSchema, key: string): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    // In dist/ they were compiled at build time; from source, skip code optimisation: it halves
    // the compile time, which is paid at start-up.
    fn = precompiledValidator(key) ?? (ajv ??= createAjv({ ...validatorOptions, code: { optimize: false } })).compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

/** `/models/0/contextWindow` under `providers.x` → `providers.x.models[0].contextWindow`. */
function dotted(prefix: string, pointer: string): string {
  let out = prefix;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(key) ? `[${key}]` : /^[A-Za-z_$][\w$-]*$/.test(key) ? `${out ? "." : ""}${key}` : `[${JSON.stringify(key)}]`;
  }
  return out;
}

/** AJV's errors as ConfigErrors with dotted paths; at most 5, one per place and problem. */
function schemaErrors(file: string, prefix: string, errors: ErrorObject[] | null | undefined): ConfigError[] {
  const out = new Map<string, ConfigError>();
  for (const e of errors ?? []) {
    let where = dotted(prefix, e.instancePath);
    let problem = e.message ?? e.keyword;
    if (e.keyword === "required") {
      where += `${where ? "." : ""}${String(e.params.missingProperty)}`;
      problem = "is required";
    } else if (e.keyword === "enum") {
      problem = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    }
    out.set(`${where}\u0000${problem}`, new ConfigError(file, where, problem));
  }
  return [...out.values()].slice(0, 5);
}

export interface ModelsJson {
  file: string;
  /** Valid provider entries, in file order. */
  providers: Map<string, ProviderConfig>;
  errors: ConfigError[];
}

/** Reads and checks models.json. A missing file is no error; nothing here throws. */
export function loadModelsJson(file: string): ModelsJson {
  const result: ModelsJson = { file, providers: new Map(), errors: [] };
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") result.errors.push(new ConfigError(file, undefined, `cannot read: ${(error as Error).message}`));
    return result;
  }
  if (!text.trim()) return result;
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    result.errors.push(new ConfigError(file, undefined, parsed.error));
    return result;
  }
  result.errors.push(...parsed.notices.map((notice) => new ConfigError(file, undefined, notice)));
  const top = validator(ModelsFile, "models.json");
  if (!top(parsed.value)) {
    const isObject = typeof parsed.value === "object" && parsed.value !== null && !Array.isArray(parsed.value);
    result.errors.push(...(isObject ? schemaErrors(file, "", top.errors) : [new ConfigError(file, undefined, 'must be a JSON object with "providers"')]));
    return result;
  }
  const checked = checkProviders(file, (parsed.value as { providers: Record<string, unknown> }).providers);
  result.errors.push(...checked.errors);
  result.providers = checked.providers;
  return result;
}

/**
 * Provider entries in models.json's form (the file's, or the editor's gateway's in
 * PI_MODEL_GATEWAY): each checked alone; a bad one is reported (`file` names where it came from) and left out.
 */
export function checkProviders(file: string, entries: Record<string, unknown>): { providers: Map<string, ProviderConfig>; errors: ConfigError[] } {
  const providers = new Map<string, ProviderConfig>();
  const errors: ConfigError[] = [];
  const checkProvider = validator(ProviderConfig, "models.json:provider");
  for (const [id, entry] of Object.entries(entries)) {
    const where = dotted("providers", `/${id.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    if (!checkProvider(entry)) {
      errors.push(...schemaErrors(file, where, checkProvider.errors));
      continue;
    }
    const config = entry as ProviderConfig;
    const problem = providerProblem(config);
    if (problem) {
      errors.push(new ConfigError(file, problem.field ? `${where}.${problem.field}` : where, problem.message));
      continue;
    }
    providers.set(id, config);
  }
  return { providers, errors };
}

/** Any API we implement; `faux` (the scripted test model) works but is not advertised. */
function isApi(value: string): value is Api {
  return (knownApis as readonly string[]).includes(value);
}

const apiList = knownApis.filter((api) => api !== "faux").join(", ");

function providerProblem(config: ProviderConfig): { field?: string; message: string } | undefined {
  if (config.oauth !== undefined) return { field: "oauth", message: `OAuth providers ("${config.oauth}") are not supported by this agent host` };
  if (config.api !== undefined && !isApi(config.api)) return { field: "api", message: `unknown api "${config.api}" (supported: ${apiList})` };
  const hasOverrides = config.modelOverrides && Object.keys(config.modelOverrides).length > 0;
  if (!config.models?.length && !config.baseUrl && !config.headers && !config.compat && !hasOverrides && !config.apiKey && config.authHeader === undefined) {
    return { message: 'must specify "baseUrl", "headers", "compat", "apiKey", "modelOverrides" or "models"' };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Applying

function mergeCompat(base: Model["compat"], override: Model["compat"] | undefined): Model["compat"] {
  if (!override) return base;
  return { ...base, ...override };
}

function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

/** A model from a models.json definition, with pi's defaults for what it leaves out. */
function modelFromDefinition(provider: string, def: ModelDefinition, config: ProviderConfig, defaults: Model | undefined): Model | string {
  const api = def.api ?? config.api ?? defaults?.api;
  if (!api) return 'no "api": set it on the provider or the model';
  if (!isApi(api)) return `unknown api "${api}" (supported: ${apiList})`;
  const baseUrl = def.baseUrl ?? config.baseUrl ?? defaults?.baseUrl;
  if (!baseUrl) return 'no "baseUrl": set it on the provider or the model';
  if (def.contextWindow !== undefined && !(def.contextWindow > 0)) return "contextWindow must be positive";
  if (def.maxTokens !== undefined && !(def.maxTokens > 0)) return "maxTokens must be positive";
  return withoutUndefined<Model>({
    id: def.id,
    name: def.name ?? def.id,
    api,
    provider,
    baseUrl,
    reasoning: def.reasoning ?? false,
    thinkingLevelMap: def.thinkingLevelMap,
    input: def.input ?? ["text"],
    cost: def.cost ? { input: def.cost.input, output: def.cost.output, cacheRead: def.cost.cacheRead, cacheWrite: def.cost.cacheWrite } : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: def.contextWindow ?? 128_000,
    maxTokens: def.maxTokens ?? 16_384,
    compat: mergeCompat(config.compat as Model["compat"], def.compat as Model["compat"]),
  });
}

function applyOverride(model: Model, o: ModelOverride): Model | string {
  if (o.contextWindow !== undefined && !(o.contextWindow > 0)) return "contextWindow must be positive";
  if (o.maxTokens !== undefined && !(o.maxTokens > 0)) return "maxTokens must be positive";
  return withoutUndefined<Model>({
    ...model,
    name: o.name ?? model.name,
    reasoning: o.reasoning ?? model.reasoning,
    thinkingLevelMap: o.thinkingLevelMap ? { ...model.thinkingLevelMap, ...o.thinkingLevelMap } : model.thinkingLevelMap,
    input: o.input ?? model.input,
    cost: o.cost
      ? {
          input: o.cost.input ?? model.cost.input,
          output: o.cost.output ?? model.cost.output,
          cacheRead: o.cost.cacheRead ?? model.cost.cacheRead,
          cacheWrite: o.cost.cacheWrite ?? model.cost.cacheWrite,
        }
      : model.cost,
    contextWindow: o.contextWindow ?? model.contextWindow,
    maxTokens: o.maxTokens ?? model.maxTokens,
    compat: mergeCompat(model.compat, o.compat as Model["compat"]),
  });
}

/** Pi's choice of a model to take `api` and `baseUrl` from when a definition leaves them out. */
function defaultsFor(models: Model[], id: string, api: string | undefined): Model | undefined {
  return models.find((m) => m.id === id) ?? (api ? models.find((m) => m.api === api) : undefined) ?? models.find((m) => m.api === "openai-completions") ?? models[0];
}

/**
 * The models of one provider after its models.json entry: `base` are its built-in models (empty
 * for a custom provider). Problems with single models are added to `errors` and the model skipped.
 */
export function applyProviderConfig(provider: string, base: readonly Model[], config: ProviderConfig | undefined, file: string, errors: ConfigError[]): Model[] {
  if (!config) return [...base];
  const where = dotted("providers", `/${provider.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  const models: Model[] = base.map((model) =>
    withoutUndefined<Model>({ ...model, baseUrl: config.baseUrl ?? model.baseUrl, compat: mergeCompat(model.compat, config.compat as Model["compat"]) }),
  );
  (config.models ?? []).forEach((def, index) => {
    const model = modelFromDefinition(provider, def, config, defaultsFor(models, def.id, def.api ?? config.api));
    if (typeof model === "string") {
      errors.push(new ConfigError(file, `${where}.models[${index}]`, model));
      return;
    }
    const existing = models.findIndex((m) => m.id === def.id);
    if (existing >= 0) models[existing] = model;
    else models.push(model);
  });
  return models.map((model) => {
    const override = overrideFor(config, model.id);
    if (!override) return model;
    const patched = applyOverride(model, override);
    if (typeof patched === "string") {
      errors.push(new ConfigError(file, `${where}.modelOverrides[${JSON.stringify(model.id)}]`, patched));
      return model;
    }
    return patched;
  });
}

/** A model's override, looked up as an own key only (a model id may be `constructor` or `toString`). */
function overrideFor(config: ProviderConfig, modelId: string): ModelOverride | undefined {
  const overrides = config.modelOverrides;
  return overrides && Object.hasOwn(overrides, modelId) ? overrides[modelId] : undefined;
}

/** Header templates configured for a model: provider headers, then the model's, then its override's. */
export function configuredHeaders(config: ProviderConfig | undefined, modelId: string): Record<string, string> | undefined {
  if (!config) return undefined;
  const headers = {
    ...config.headers,
    ...config.models?.find((m) => m.id === modelId)?.headers,
    ...overrideFor(config, modelId)?.headers,
  };
  return Object.keys(headers).length > 0 ? headers : undefined;
}

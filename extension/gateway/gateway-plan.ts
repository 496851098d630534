/**
 * Which providers the model gateway serves for an agent, decided from the keys in SecretStorage
 * (their variable names only) and pi's models.json: a built-in provider whose key variable is
 * stored, and a models.json provider whose `apiKey` (or a header) reads a stored variable
 * (`$MY_KEY`, `${MY_KEY}`, or pi ≤ 0.73's bare `MY_KEY`). Each goes to its own base URL: the
 * models.json `baseUrl` when set, else the built-in default. A stored key no provider can be
 * routed for is "unroutable": it is not given to the agent, and the UI says so.
 * No vscode here: plain data in, plain data out.
 */

/** Providers with a key the user can store through Pi: Set API Key, and their defaults in pi 0.87.1. */
export const builtInProviders: readonly { provider: string; label: string; variable: string; baseUrl: string }[] = [
  { provider: "anthropic", label: "Anthropic", variable: "ANTHROPIC_API_KEY", baseUrl: "https://api.anthropic.com" },
  { provider: "openai", label: "OpenAI", variable: "OPENAI_API_KEY", baseUrl: "https://api.openai.com/v1" },
  { provider: "google", label: "Google Gemini", variable: "GEMINI_API_KEY", baseUrl: "https://generativelanguage.googleapis.com/v1beta" },
  { provider: "openrouter", label: "OpenRouter", variable: "OPENROUTER_API_KEY", baseUrl: "https://openrouter.ai/api/v1" },
  { provider: "groq", label: "Groq", variable: "GROQ_API_KEY", baseUrl: "https://api.groq.com/openai/v1" },
  { provider: "xai", label: "xAI", variable: "XAI_API_KEY", baseUrl: "https://api.x.ai/v1" },
  // pi's Mistral SDK adds /v1 itself; the bundled host's chat completions use …/v1 (same origin).
  { provider: "mistral", label: "Mistral", variable: "MISTRAL_API_KEY", baseUrl: "https://api.mistral.ai" },
  { provider: "deepseek", label: "DeepSeek", variable: "DEEPSEEK_API_KEY", baseUrl: "https://api.deepseek.com" },
  { provider: "cerebras", label: "Cerebras", variable: "CEREBRAS_API_KEY", baseUrl: "https://api.cerebras.ai/v1" },
];

export interface GatewayProvider {
  /** The provider's name in the agent (and the gateway's first path segment). */
  name: string;
  /** The SecretStorage variable holding its key (and the one the agent reads the token from). */
  variable: string;
  /** The provider's own base URL: requests go to its origin only. */
  baseUrl: string;
  /** Its models.json headers that read the variable (the key may be put there too). */
  keyHeaders: string[];
}

export interface GatewayPlan {
  providers: GatewayProvider[];
  /** Stored variables no provider reads through the gateway: kept from the agent, with a notice. */
  unroutable: string[];
}

/** The variable a pi config value reads, when it is only that: `$NAME`, `${NAME}`, or a bare all-caps `NAME`. */
export function referencedVariable(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(value) ?? /^([A-Z_][A-Z0-9_]*)$/.exec(value);
  return match?.[1];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** `modelsJson`: the parsed file (or undefined); anything malformed in it is ignored here (the agent reports it). */
export function planGateway(stored: readonly string[], modelsJson: unknown): GatewayPlan {
  const storedSet = new Set(stored);
  const configured = isRecord(modelsJson) && isRecord(modelsJson.providers) ? modelsJson.providers : {};
  const providers: GatewayProvider[] = [];
  const add = (name: string, variable: string, baseUrl: string | undefined, keyHeaders: string[] = []) => {
    if (!baseUrl || !isHttpUrl(baseUrl) || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || providers.some((p) => p.name === name)) return;
    providers.push({ name, variable, baseUrl, keyHeaders });
  };
  for (const [name, config] of Object.entries(configured)) {
    if (!isRecord(config)) continue;
    const headers = isRecord(config.headers) ? Object.entries(config.headers).map(([header, value]) => [header, referencedVariable(value)] as const) : [];
    const variable = [referencedVariable(config.apiKey), ...headers.map(([, v]) => v)].find((v) => v !== undefined && storedSet.has(v));
    if (!variable) continue;
    const firstModel = Array.isArray(config.models) ? config.models.find(isRecord) : undefined;
    const builtIn = builtInProviders.find((p) => p.provider === name)?.baseUrl;
    const keyHeaders = headers.filter(([, v]) => v === variable).map(([header]) => header.toLowerCase());
    add(name, variable, [config.baseUrl, firstModel?.baseUrl, builtIn].find(isHttpUrl), keyHeaders);
  }
  for (const builtIn of builtInProviders) {
    const config = configured[builtIn.provider];
    // A models.json apiKey of its own means this provider does not read the stored variable.
    if (!storedSet.has(builtIn.variable) || (isRecord(config) && config.apiKey !== undefined)) continue;
    add(builtIn.provider, builtIn.variable, isRecord(config) && isHttpUrl(config.baseUrl) ? config.baseUrl : builtIn.baseUrl);
  }
  const used = new Set(providers.map((p) => p.variable));
  return { providers, unroutable: stored.filter((variable) => !used.has(variable)) };
}

/**
 * What the agent is told (PI_MODEL_GATEWAY): per provider, its own origin, its root at the
 * gateway (the bundled host keeps each model's own path after it) and the base URL pi is given
 * (the root plus the provider's default path).
 */
export interface GatewayDescriptor {
  providers: Record<string, { origin: string; gateway: string; baseUrl: string }>;
  /**
   * Providers the gateway serves itself (VS Code's models), as pi's models.json provider entries
   * (baseUrl at the gateway, apiKey `$VARIABLE` holding the token): each agent registers them.
   */
  custom?: Record<string, Record<string, unknown>>;
}

export const GATEWAY_ENV = "PI_MODEL_GATEWAY";

export function gatewayDescriptor(gatewayUrl: string, providers: readonly GatewayProvider[]): GatewayDescriptor {
  const entries = providers.map((p) => {
    const url = new URL(p.baseUrl);
    const path = url.pathname.replace(/\/+$/, "");
    return [p.name, { origin: url.origin, gateway: `${gatewayUrl}/${p.name}`, baseUrl: `${gatewayUrl}/${p.name}${path}` }] as const;
  });
  return { providers: Object.fromEntries(entries) };
}

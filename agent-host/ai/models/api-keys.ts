/**
 * Where API keys come from: each provider's conventional environment variables, and the value
 * syntax pi uses for `apiKey` and header values in models.json and for keys in auth.json.
 *
 * Value syntax (pi 0.87.1, docs/custom-provider.md):
 * - `!command`: the command's trimmed standard output (run through the shell, 10 s timeout;
 *   empty output or a non-zero exit leaves the value unresolved);
 * - `$NAME` and `${NAME}` anywhere in the value read environment variables; `$$` is a literal `$`
 *   and `$!` a literal `!`; everything else is literal.
 * - Pi ≤ 0.73 read a bare value such as `MY_API_KEY` as the name of an environment variable when
 *   one by that name was set; we keep that reading for such all-caps values, so older files work.
 */
export type Env = Readonly<Record<string, string | undefined>>;

/** The environment variables pi reads a provider's API key from, in order of preference. */
export const providerEnvVars: Readonly<Record<string, readonly string[]>> = {
  anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
  openai: ["OPENAI_API_KEY"],
  google: ["GEMINI_API_KEY"],
  groq: ["GROQ_API_KEY"],
  cerebras: ["CEREBRAS_API_KEY"],
  xai: ["XAI_API_KEY"],
  openrouter: ["OPENROUTER_API_KEY"],
  mistral: ["MISTRAL_API_KEY"],
  deepseek: ["DEEPSEEK_API_KEY"],
  nvidia: ["NVIDIA_API_KEY"],
  "ant-ling": ["ANT_LING_API_KEY"],
  "azure-openai-responses": ["AZURE_OPENAI_API_KEY"],
  "google-vertex": ["GOOGLE_CLOUD_API_KEY"],
  "github-copilot": ["COPILOT_GITHUB_TOKEN"],
  "vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
  zai: ["ZAI_API_KEY"],
  "zai-coding-cn": ["ZAI_CODING_CN_API_KEY"],
  opencode: ["OPENCODE_API_KEY"],
  "opencode-go": ["OPENCODE_API_KEY"],
  radius: ["RADIUS_API_KEY"],
  huggingface: ["HF_TOKEN"],
  fireworks: ["FIREWORKS_API_KEY"],
  together: ["TOGETHER_API_KEY"],
  baseten: ["BASETEN_API_KEY"],
  "kimi-coding": ["KIMI_API_KEY"],
  meta: ["META_API_KEY"],
  minimax: ["MINIMAX_API_KEY"],
  "minimax-cn": ["MINIMAX_CN_API_KEY"],
  moonshotai: ["MOONSHOT_API_KEY"],
  "moonshotai-cn": ["MOONSHOT_API_KEY"],
  "qwen-token-plan": ["QWEN_TOKEN_PLAN_API_KEY"],
  "qwen-token-plan-individual": ["QWEN_TOKEN_PLAN_API_KEY"],
  "qwen-token-plan-cn": ["QWEN_TOKEN_PLAN_CN_API_KEY"],
  "cloudflare-workers-ai": ["CLOUDFLARE_API_KEY"],
  "cloudflare-ai-gateway": ["CLOUDFLARE_API_KEY"],
  xiaomi: ["XIAOMI_API_KEY"],
  "xiaomi-token-plan-cn": ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
  "xiaomi-token-plan-ams": ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
  "xiaomi-token-plan-sgp": ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
};

/** The key for `provider` from its conventional environment variables, if one is set. */
/** The table looked up as own keys only: a provider id from models.json may be `toString`. */
function envVarsOf(provider: string): readonly string[] {
  return Object.hasOwn(providerEnvVars, provider) ? providerEnvVars[provider] : [];
}

export function envApiKey(provider: string, env: Env): { key: string; variable: string } | undefined {
  for (const variable of envVarsOf(provider)) {
    const key = env[variable];
    if (key) return { key, variable };
  }
  return undefined;
}

/** What to tell a user who has no key for `provider`. */
export function missingKeyHint(provider: string): string {
  const vars = envVarsOf(provider);
  const variable = vars?.[vars.length - 1];
  return variable
    ? `set ${variable} or apiKey in models.json`
    : `set apiKey for it in models.json (a literal key, "$ENV_VAR" or "!command")`;
}

type Part = { literal: string } | { env: string };
export type ConfigValue = { command: string } | { parts: Part[] };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const LEGACY_ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

/** Parses an `apiKey`/header value into a command or a template of literals and env references. */
export function parseConfigValue(raw: string): ConfigValue {
  if (raw.startsWith("!")) return { command: raw.slice(1) };
  const parts: Part[] = [];
  const literal = (text: string) => {
    const last = parts[parts.length - 1];
    if (last && "literal" in last) last.literal += text;
    else if (text) parts.push({ literal: text });
  };
  let i = 0;
  while (i < raw.length) {
    const dollar = raw.indexOf("$", i);
    if (dollar < 0) {
      literal(raw.slice(i));
      break;
    }
    literal(raw.slice(i, dollar));
    const next = raw[dollar + 1];
    if (next === "$" || next === "!") {
      literal(next);
      i = dollar + 2;
    } else if (next === "{") {
      const end = raw.indexOf("}", dollar + 2);
      const name = end < 0 ? "" : raw.slice(dollar + 2, end);
      if (end >= 0 && NAME.exec(name)?.[0] === name) {
        parts.push({ env: name });
        i = end + 1;
      } else {
        literal(end < 0 ? "$" : raw.slice(dollar, end + 1));
        i = end < 0 ? dollar + 1 : end + 1;
      }
    } else {
      const name = NAME.exec(raw.slice(dollar + 1))?.[0];
      if (name) {
        parts.push({ env: name });
        i = dollar + 1 + name.length;
      } else {
        literal("$");
        i = dollar + 1;
      }
    }
  }
  return { parts };
}

/** The environment variables a value reads (none for a command). */
export function configValueEnvNames(raw: string): string[] {
  const value = parseConfigValue(raw);
  if ("command" in value) return [];
  const names = value.parts.flatMap((part) => ("env" in part ? [part.env] : []));
  return [...new Set(names)];
}

/**
 * Resolves a value without running anything: a template with all its variables set, or a
 * legacy bare variable name. `undefined` for a command or a missing variable.
 */
export function resolveStaticValue(raw: string, env: Env): string | undefined {
  const value = parseConfigValue(raw);
  if ("command" in value) return undefined;
  if (value.parts.length === 1 && "literal" in value.parts[0] && LEGACY_ENV_NAME.test(raw) && env[raw]) return env[raw];
  let out = "";
  for (const part of value.parts) {
    if ("literal" in part) out += part.literal;
    else {
      const v = env[part.env];
      if (!v) return undefined;
      out += v;
    }
  }
  return out;
}

/** Whether a value can be resolved (commands count as resolvable: they are not run to check). */
export function isValueConfigured(raw: string, env: Env): boolean {
  return raw.startsWith("!") || resolveStaticValue(raw, env) !== undefined;
}

export type CommandRunner = (command: string, env: Env) => Promise<string | undefined>;

/** Runs `command` through the shell; its trimmed stdout, or undefined on failure or empty output. */
export const shellCommandRunner: CommandRunner = async (command, env) => {
  const { exec } = await import("node:child_process"); // loaded only when a command is configured
  return new Promise((resolve) => {
    exec(command, { timeout: 10_000, windowsHide: true, env: { ...(env as NodeJS.ProcessEnv) }, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      const out = String(stdout ?? "").trim();
      resolve(error || !out ? undefined : out);
    });
  });
};

/**
 * Resolves a value. Throws an Error naming what failed (`what`, e.g. `API key for provider "x"`)
 * when a variable is missing or a command fails; commands run only when `runner` is given.
 */
export async function resolveConfigValue(raw: string, env: Env, what: string, runner?: CommandRunner): Promise<string> {
  const value = parseConfigValue(raw);
  if ("command" in value) {
    if (!runner) throw new Error(`Cannot resolve ${what}: running commands ("!${value.command}") is disabled`);
    const out = await runner(value.command, env);
    if (out === undefined) throw new Error(`Failed to resolve ${what} from command: ${value.command}`);
    return out;
  }
  const resolved = resolveStaticValue(raw, env);
  if (resolved !== undefined) return resolved;
  const missing = configValueEnvNames(raw).filter((name) => !env[name]);
  throw new Error(`Failed to resolve ${what} from environment variable${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
}

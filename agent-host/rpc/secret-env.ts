/**
 * What the editor puts in the environment for the providers only: since #30 no key (keys stay in
 * the editor, behind its loopback model gateway) but the gateway's per-session token, in each
 * routed provider's key variable, and PI_MODEL_GATEWAY (the routes). The editor names them in
 * PI_SECRET_ENV; they (and PI_SECRET_ENV) are taken out of process.env at start-up, so nothing the
 * host spawns inherits them — the bash tool, `!command`, ripgrep and fd, an extension's exec or
 * its own child_process calls — and only the model registry gets them back. Keys the user had in
 * their own shell environment stay, as in pi.
 */
export const SECRET_ENV_NAMES = "PI_SECRET_ENV";

/** Removes the named secrets (and the list itself) from `env`; returns them. */
export function takeSecretEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const names = (env[SECRET_ENV_NAMES] ?? "").split(",").map((name) => name.trim()).filter(Boolean);
  delete env[SECRET_ENV_NAMES];
  const secrets: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) secrets[name] = value;
    delete env[name];
  }
  return secrets;
}

/**
 * The editor's model gateway (extension/gateway/): for each provider whose key the editor keeps,
 * its own origin and its root at the loopback gateway. The key variable holds the gateway's token.
 */
export const MODEL_GATEWAY_ENV = "PI_MODEL_GATEWAY";

export interface GatewayRoute {
  origin: string;
  /** `http://127.0.0.1:PORT/<provider>`: the provider's paths go after it. */
  gateway: string;
}

/** The gateway's routes from the (already taken) secrets; anything malformed is left out. */
export function gatewayRoutes(secrets: Readonly<Record<string, string>>): Map<string, GatewayRoute> {
  const routes = new Map<string, GatewayRoute>();
  const text = secrets[MODEL_GATEWAY_ENV];
  if (!text) return routes;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return routes;
  }
  const providers = typeof parsed === "object" && parsed !== null ? (parsed as { providers?: unknown }).providers : undefined;
  if (typeof providers !== "object" || providers === null) return routes;
  for (const [name, entry] of Object.entries(providers)) {
    const { origin, gateway } = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    if (typeof origin === "string" && typeof gateway === "string" && isLoopbackHttp(gateway)) routes.set(name, { origin, gateway });
  }
  return routes;
}

/**
 * The providers the gateway serves itself (VS Code's models), as models.json provider entries,
 * from the (already taken) secrets: only those whose baseUrl is on the loopback gateway. Checked
 * against models.json's schema by the caller.
 */
export function gatewayProviders(secrets: Readonly<Record<string, string>>): Record<string, unknown> {
  const text = secrets[MODEL_GATEWAY_ENV];
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  const custom = typeof parsed === "object" && parsed !== null ? (parsed as { custom?: unknown }).custom : undefined;
  if (typeof custom !== "object" || custom === null || Array.isArray(custom)) return {};
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(custom)) {
    const baseUrl = typeof entry === "object" && entry !== null ? (entry as { baseUrl?: unknown }).baseUrl : undefined;
    if (typeof baseUrl === "string" && isLoopbackHttp(baseUrl)) Object.defineProperty(out, name, { value: entry, enumerable: true });
  }
  return out;
}

function isLoopbackHttp(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" && parsed.hostname === "127.0.0.1";
  } catch {
    return false;
  }
}

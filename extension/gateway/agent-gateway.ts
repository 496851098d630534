/**
 * One agent process's model gateway, owned as a Disposable by the process's lifetime: which
 * providers it serves (gateway-plan.ts), the loopback server (gateway-server.ts) reading each key
 * from SecretStorage when a request needs it, and what the agent is given instead of the keys:
 * the token in each provider's key variable and PI_MODEL_GATEWAY (the gateway's base URLs).
 * Upstream requests go through the proxy the agent would have used (gatewayProxyEnv).
 */
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { withHttpProxy, type Env } from "../../shared/node/http-proxy";
import { piAgentDir } from "../../shared/node/project-trust";
import { readRegularText } from "../../shared/node/regular-file";
import { gatewayDescriptor, GATEWAY_ENV, planGateway } from "./gateway-plan";
import { startGatewayServer, type GatewayServer, type LocalHandler } from "./gateway-server";
import { approvedProviders, type OriginApproval } from "./key-origins";
import { parseForeignJson } from "../../shared/foreign-json";

/** Where the keys are read from (the API key store), and where each may be sent (key-origins.ts). */
export interface KeySource {
  readonly variables: readonly string[];
  key(variable: string): Promise<string | undefined>;
  /** Whether `variable`'s key may go to `origin` (other than its provider's default): asked once, remembered. */
  allowsOrigin: OriginApproval;
}

/** A provider the gateway answers itself (VS Code's models), with the models.json entry agents register for it. */
export interface LocalProvider {
  name: string;
  /** The variable the agent reads the gateway's token from (the entry's apiKey is `$variable`). */
  variable: string;
  /** Appended to `<gateway>/<name>` for the entry's baseUrl. */
  basePath: string;
  handler: LocalHandler;
  /** pi's models.json provider entry without baseUrl and apiKey (the gateway adds them). */
  config: Record<string, unknown>;
}

export class AgentGateway implements vscode.Disposable {
  private constructor(
    private readonly server: GatewayServer | undefined,
    /** For the agent's environment: the token in each routed key variable, and PI_MODEL_GATEWAY. */
    readonly env: Readonly<Record<string, string>>,
    /** Stored key variables no provider reads through the gateway: not given to the agent. */
    readonly unroutable: readonly string[],
    /** The providers served, for messages. */
    readonly providers: readonly string[],
    /** Each routed key variable's provider at the gateway (its origin there) and the token. */
    private readonly routes: ReadonlyMap<string, { baseUrl: string; token: string }> = new Map(),
  ) {}

  /**
   * Where an agent that takes a base URL and a key at run time (an ACP agent's sign-in: gemini-cli's
   * gateway method) sends the requests of `variable`'s provider: the gateway, with the token as the key.
   */
  routeFor(variable: string): { baseUrl: string; token: string } | undefined {
    return this.routes.get(variable);
  }

  /**
   * `agentEnv`: the environment the agent starts with (for PI_CODING_AGENT_DIR, and its proxy
   * variables); `editorProxy`: VS Code's http.proxy / http.noProxy (user settings).
   */
  static async start(keys: KeySource, agentEnv: Readonly<Record<string, string | undefined>>, editorProxy?: EditorProxy, local: readonly LocalProvider[] = []): Promise<AgentGateway> {
    const agentDir = piAgentDir(agentEnv, os.homedir());
    const planned = planGateway(keys.variables, readModelsJson(agentDir));
    // A key goes only to its provider's default origin or one the user approved for it.
    const { approved, refused } = await approvedProviders(planned.providers, keys.allowsOrigin);
    const plan = { providers: approved, unroutable: [...planned.unroutable, ...new Set(refused.map((p) => p.variable).filter((v) => !approved.some((p) => p.variable === v)))] };
    // A name the keys already route (a models.json provider called "vscode-lm") keeps its route.
    const served = local.filter((l) => !plan.providers.some((p) => p.name === l.name));
    if (plan.providers.length === 0 && served.length === 0) return new AgentGateway(undefined, {}, plan.unroutable, []);
    const proxyEnv = gatewayProxyEnv(agentEnv, readHttpProxy(agentDir), editorProxy);
    const server = await startGatewayServer(
      plan.providers.map((p) => ({ name: p.name, upstream: p.baseUrl, key: () => keys.key(p.variable), keyHeaders: p.keyHeaders })),
      { proxyEnv, local: new Map(served.map((l) => [l.name, l.handler])) },
    );
    const env: Record<string, string> = {};
    for (const provider of plan.providers) env[provider.variable] = server.token;
    for (const provider of served) env[provider.variable] = server.token;
    const custom = Object.fromEntries(served.map((l) => [l.name, { ...l.config, baseUrl: `${server.url}/${l.name}${l.basePath}`, apiKey: `$${l.variable}` }]));
    env[GATEWAY_ENV] = JSON.stringify({ ...gatewayDescriptor(server.url, plan.providers), ...(served.length ? { custom } : {}) });
    // An agent given one route (an ACP sign-in) gets that route's own token, not the one for every stored key.
    const routes = new Map(plan.providers.map((p) => [p.variable, { baseUrl: `${server.url}/${p.name}`, token: server.routeToken(p.name) ?? server.token }]));
    return new AgentGateway(server, env, plan.unroutable, [...plan.providers.map((p) => p.name), ...served.map((l) => l.name)], routes);
  }

  dispose(): void {
    void this.server?.close();
  }
}

/** VS Code's own proxy settings (http.proxy, http.noProxy), from the user's settings. */
export interface EditorProxy {
  proxy?: string;
  noProxy?: readonly string[];
}

const proxyVariables = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"];

/**
 * The proxy variables of the gateway's upstream requests: what the agent would have used (its
 * environment, with the user's settings.json `httpProxy` applied as the host and pi apply it);
 * when that names no proxy at all, VS Code's http.proxy, with http.noProxy added to NO_PROXY.
 */
export function gatewayProxyEnv(agentEnv: Readonly<Env>, settingsHttpProxy: string | undefined, editorProxy: EditorProxy | undefined): Env {
  const env = withHttpProxy(agentEnv, settingsHttpProxy);
  const editor = editorProxy?.proxy?.trim();
  if (!editor || proxyVariables.some((name) => env[name]?.trim())) return env;
  const noProxy = [env.no_proxy ?? env.NO_PROXY ?? "", ...(editorProxy?.noProxy ?? [])].filter((entry) => entry.trim()).join(",");
  return { ...env, HTTP_PROXY: editor, HTTPS_PROXY: editor, no_proxy: noProxy, NO_PROXY: noProxy };
}

/** The user's settings.json `httpProxy` (never a project's: a repository must not route the keys). */
function readHttpProxy(agentDir: string): string | undefined {
  let text: string;
  try {
    text = readRegularText(path.join(agentDir, "settings.json"));
  } catch {
    return undefined;
  }
  const parsed = parseForeignJson(text);
  if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value)) return undefined;
  const proxy = (parsed.value as Record<string, unknown>).httpProxy;
  return typeof proxy === "string" && proxy.trim() ? proxy.trim() : undefined;
}

/** pi's models.json; else omp's models.yml when it is written as JSON (YAML proper is not read: its custom providers get the notice). */
function readModelsJson(agentDir: string): unknown {
  for (const name of ["models.json", "models.yml"]) {
    let text: string;
    try {
      text = readRegularText(path.join(agentDir, name));
    } catch {
      continue; // missing: the next, else nothing is routed but the built-in providers
    }
    // Foreign text (the user's file, or one a tool wrote): through the one door, inert data only.
    const parsed = parseForeignJson(text);
    if (parsed.ok) return parsed.value;
  }
  return undefined;
}

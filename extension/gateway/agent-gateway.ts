/**
 * One agent process's model gateway, owned as a Disposable by the process's lifetime: which
 * providers it serves (gateway-plan.ts), the loopback server (gateway-server.ts) reading each key
 * from SecretStorage when a request needs it, and what the agent is given instead of the keys:
 * the token in each provider's key variable and PI_MODEL_GATEWAY (the gateway's base URLs).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { piAgentDir } from "../../shared/node/project-trust";
import { gatewayDescriptor, GATEWAY_ENV, planGateway } from "./gateway-plan";
import { startGatewayServer, type GatewayServer } from "./gateway-server";
import { parseForeignJson } from "../../shared/foreign-json";

/** Where the keys are read from (the API key store). */
export interface KeySource {
  readonly variables: readonly string[];
  key(variable: string): Promise<string | undefined>;
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
  ) {}

  /** `agentEnv`: the environment the agent starts with (for PI_CODING_AGENT_DIR). */
  static async start(keys: KeySource, agentEnv: Readonly<Record<string, string | undefined>>): Promise<AgentGateway> {
    const plan = planGateway(keys.variables, readModelsJson(piAgentDir(agentEnv, os.homedir())));
    if (plan.providers.length === 0) return new AgentGateway(undefined, {}, plan.unroutable, []);
    const server = await startGatewayServer(plan.providers.map((p) => ({ name: p.name, upstream: p.baseUrl, key: () => keys.key(p.variable), keyHeaders: p.keyHeaders })));
    const env: Record<string, string> = {};
    for (const provider of plan.providers) env[provider.variable] = server.token;
    env[GATEWAY_ENV] = JSON.stringify(gatewayDescriptor(server.url, plan.providers));
    return new AgentGateway(server, env, plan.unroutable, plan.providers.map((p) => p.name));
  }

  dispose(): void {
    void this.server?.close();
  }
}

/** pi's models.json; else omp's models.yml when it is written as JSON (YAML proper is not read: its custom providers get the notice). */
function readModelsJson(agentDir: string): unknown {
  for (const name of ["models.json", "models.yml"]) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(agentDir, name), "utf8");
    } catch {
      continue; // missing: the next, else nothing is routed but the built-in providers
    }
    // Foreign text (the user's file, or one a tool wrote): through the one door, inert data only.
    const parsed = parseForeignJson(text);
    if (parsed.ok) return parsed.value;
  }
  return undefined;
}

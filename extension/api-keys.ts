import * as vscode from "vscode";
import { builtInProviders } from "./gateway/gateway-plan";
import { quickPickText } from "./ui/plain-text";

/** Providers and the environment variable Pi-compatible agents read their API key from. */
export const apiKeyProviders: readonly { provider: string; label: string; variable: string }[] = builtInProviders;

/** A valid environment variable name, e.g. MY_PROVIDER_API_KEY. */
export const isVariableName = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);

const secretKey = (variable: string) => `pi.apiKey.${variable}`;
const indexKey = "pi.apiKeyVariables";

/**
 * API keys in SecretStorage, by environment variable name. They do not reach the agent: the model
 * gateway (gateway/) reads a key here when a request needs it and puts it on that request; the
 * agent gets a token in the variable instead. (One exception, the user's pick: an ACP agent's
 * sign-in method that takes the key itself, given over ACP: acp/acp-sign-in.ts.) Never settings, logs, sessions or any process's
 * environment. The names (not the keys) are kept in globalState.
 */
export class ApiKeyStore {
  private readonly changeEmitter = new vscode.EventEmitter<string>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  get variables(): string[] {
    return this.state.get<string[]>(indexKey, []);
  }

  async set(variable: string, key: string): Promise<void> {
    if (!isVariableName(variable)) throw new Error(`Not an environment variable name: ${variable}`);
    await this.secrets.store(secretKey(variable), key);
    if (!this.variables.includes(variable)) await this.state.update(indexKey, [...this.variables, variable].sort());
    this.changeEmitter.fire(variable);
  }

  async delete(variable: string): Promise<void> {
    await this.secrets.delete(secretKey(variable));
    await this.state.update(indexKey, this.variables.filter((v) => v !== variable));
    this.changeEmitter.fire(variable);
  }

  /**
   * The ACP agents (by name) the user signed in through the model gateway, and with which of their
   * methods: made again at the agent's next start (acp/acp-sign-in.ts), forgotten at sign-out.
   * Method ids only, never a key or a token.
   */
  readonly gatewaySignIns = {
    chosen: (agent: string): string | undefined => this.state.get<Record<string, string>>(gatewaySignInsKey, {})[agent],
    remember: (agent: string, methodId: string | undefined): Thenable<void> => {
      const { [agent]: _left, ...others } = this.state.get<Record<string, string>>(gatewaySignInsKey, {});
      return this.state.update(gatewaySignInsKey, methodId ? { ...others, [agent]: methodId } : others);
    },
  };

  /** The stored key of `variable`, read when a request needs it. */
  async key(variable: string): Promise<string | undefined> {
    return this.variables.includes(variable) ? await this.secrets.get(secretKey(variable)) : undefined;
  }

  /**
   * Whether the key in `variable` may be sent to `origin` (an address pi's models.json names, not
   * the provider's default): approved once by the user, remembered in globalState. The question
   * names the key and the address whole; Escape sends nothing (asked again at the next start).
   */
  allowsOrigin = async (variable: string, origin: string, provider: string): Promise<boolean> => {
    const approvals = this.state.get<string[]>(originsKey, []);
    const entry = `${variable} ${origin}`;
    if (approvals.includes(entry)) return true;
    const send = "Send it to this address";
    const picked = await vscode.window.showQuickPick(
      [
        { label: send, detail: `pi's models.json names ${quickPickText(origin)} for the provider "${quickPickText(provider)}". The key goes only there; remembered for this address.` },
        { label: "Don't send", detail: "The agent gets no key for it. A file an agent can write could name any address." },
      ],
      { title: `Send your API key ${variable} to ${quickPickText(origin)}?`, ignoreFocusOut: true },
    );
    if (picked?.label !== send) return false;
    await this.approveOrigin(variable, origin);
    return true;
  };

  /** Approves an address for a key without asking (the tests' set-up; the answer the question stores). */
  async approveOrigin(variable: string, origin: string): Promise<void> {
    const approvals = this.state.get<string[]>(originsKey, []);
    if (!approvals.includes(`${variable} ${origin}`)) await this.state.update(originsKey, [...approvals, `${variable} ${origin}`]);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}

const originsKey = "pi.apiKeyOrigins";
const gatewaySignInsKey = "pi.acpGatewaySignIns";


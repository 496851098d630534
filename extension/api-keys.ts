import * as vscode from "vscode";

/** Providers and the environment variable Pi-compatible agents read their API key from. */
export const apiKeyProviders: readonly { provider: string; label: string; variable: string }[] = [
  { provider: "anthropic", label: "Anthropic", variable: "ANTHROPIC_API_KEY" },
  { provider: "openai", label: "OpenAI", variable: "OPENAI_API_KEY" },
  { provider: "google", label: "Google Gemini", variable: "GEMINI_API_KEY" },
  { provider: "openrouter", label: "OpenRouter", variable: "OPENROUTER_API_KEY" },
  { provider: "groq", label: "Groq", variable: "GROQ_API_KEY" },
  { provider: "xai", label: "xAI", variable: "XAI_API_KEY" },
  { provider: "mistral", label: "Mistral", variable: "MISTRAL_API_KEY" },
  { provider: "deepseek", label: "DeepSeek", variable: "DEEPSEEK_API_KEY" },
  { provider: "cerebras", label: "Cerebras", variable: "CEREBRAS_API_KEY" },
];

/** A valid environment variable name, e.g. MY_PROVIDER_API_KEY. */
export const isVariableName = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);

const secretKey = (variable: string) => `pi.apiKey.${variable}`;
const indexKey = "pi.apiKeyVariables";

/**
 * API keys in SecretStorage, by environment variable name. They reach the agent only through its
 * environment; never settings, logs or sessions. The names (not the keys) are kept in globalState.
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

  /** The stored keys as environment variables for the agent process. */
  async environment(): Promise<Record<string, string>> {
    const env: Record<string, string> = {};
    for (const variable of this.variables) {
      const key = await this.secrets.get(secretKey(variable));
      if (key) env[variable] = key;
    }
    return env;
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}

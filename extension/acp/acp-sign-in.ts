/**
 * Sign-in for an ACP agent that says "authentication required" (-32000) to a session call: its
 * `authMethods` offered in the editor's quick pick (acp-auth.ts builds the rows), the chosen one
 * run (`authenticate`, a stored key in its `_meta`, or a command in a VS Code terminal), and the
 * call made once more. Declined or failed: the agent's own error stands.
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { commandLine, isAuthRequired, signInMethods, type AgentInvocation, type SignInMethod } from "./acp-auth";

/** The editor's side (VS Code in the extension; a script in tests). */
export interface SignInUi {
  /** The method the user picks of these (undefined: none). `reason` is the agent's error, foreign text. */
  choose(agentName: string, reason: string, methods: readonly SignInMethod[]): Promise<string | undefined>;
  /** The stored key of `variable` (SecretStorage), if any. */
  apiKey(variable: string): Promise<string | undefined>;
  /** The model gateway's route for the key of `variable` (its provider's base URL there, and the token), if one runs. */
  gateway(variable: string): Promise<{ baseUrl: string; token: string } | undefined>;
  /** Shows the whole command line, runs it in a terminal when the user agrees; its exit code (undefined: not run). */
  runInTerminal(agentName: string, method: Extract<SignInMethod, { kind: "terminal" }>): Promise<number | undefined>;
}

export class SignIn {
  private methods: acp.AuthMethod[] = [];
  /** The user's time in sign-in (the quick pick, a terminal login): a start's deadline does not count it. */
  private userMs = 0;
  private askedAt: number | undefined;

  constructor(
    private readonly ui: SignInUi | undefined,
    private readonly invocation: AgentInvocation | undefined,
    private readonly agent: () => acp.ClientConnection["agent"],
    private readonly agentName: () => string,
  ) {}

  /** The client capability: terminal methods only when the editor can run them. */
  get capability(): { terminal: boolean } {
    return { terminal: Boolean(this.ui && this.invocation) };
  }

  /** initialize's authMethods. */
  offered(methods: readonly acp.AuthMethod[] | null | undefined): void {
    this.methods = [...(methods ?? [])];
  }

  /** `call`, and after "authentication required" and a sign-in the user chose, `call` once more. */
  async around<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!isAuthRequired(error) || !this.ui || this.methods.length === 0) throw error;
      this.askedAt = Date.now();
      try {
        if (!(await this.signIn(reasonOf(error)))) throw error;
      } finally {
        this.userMs += Date.now() - this.askedAt;
        this.askedAt = undefined;
      }
      return call();
    }
  }

  /** Whether the user is signing in now. */
  get asking(): boolean {
    return this.askedAt !== undefined;
  }

  /** The time the user spent signing in, so far (ms). */
  userTime(): number {
    return this.userMs + (this.askedAt === undefined ? 0 : Date.now() - this.askedAt);
  }

  /** `work`, or a rejection once it has taken `ms` not counting the user's time signing in. */
  async deadline(work: Promise<void>, ms: number, late: () => string): Promise<void> {
    const begin = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      const check = () => {
        const spent = Date.now() - begin - this.userTime();
        if (!this.asking && spent >= ms) reject(new Error(late()));
        else timer = setTimeout(check, this.asking ? 250 : ms - spent);
      };
      timer = setTimeout(check, ms);
    });
    try {
      await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** True when a method was run to its end. */
  private async signIn(reason: string): Promise<boolean> {
    const ui = this.ui!;
    const name = this.agentName();
    const methods = signInMethods(this.methods, this.invocation);
    const chosenId = await ui.choose(name, reason, methods);
    const method = methods.find((m) => m.id === chosenId);
    if (!method) return false;
    switch (method.kind) {
      case "terminal": {
        const code = await ui.runInTerminal(name, method);
        if (code === undefined) return false;
        if (code !== 0) throw new Error(`Sign-in for ${name} failed: \`${commandLine(method.command, method.args)}\` exited with code ${code}.`);
        return true;
      }
      case "api-key": {
        if (!method.variable) throw new Error(`${name} wants a key for "${method.provider}", which Pi does not store: sign in another way, or give ${name} its key in its own settings.`);
        const key = await ui.apiKey(method.variable);
        if (!key) throw new Error(`No ${method.variable} is stored: run "Pi: Set API Key" for it, then start ${name} again.`);
        await this.agent().request("authenticate", { methodId: method.id, _meta: { "api-key": key } });
        return true;
      }
      case "gateway": {
        const route = await ui.gateway(method.variable);
        if (!route) throw new Error(`No ${method.variable} is stored: run "Pi: Set API Key" for it, then start ${name} again.`);
        // gemini-cli: the key in _meta["api-key"] (here the token), the base URL in _meta.gateway.
        await this.agent().request("authenticate", { methodId: method.id, _meta: { "api-key": route.token, gateway: { baseUrl: route.baseUrl } } });
        return true;
      }
      case "agent":
        await this.agent().request("authenticate", { methodId: method.id });
        return true;
    }
  }
}

function reasonOf(error: unknown): string {
  const message = error && typeof error === "object" && "message" in error ? String((error as { message: unknown }).message) : String(error);
  const data = error && typeof error === "object" && "data" in error ? (error as { data: unknown }).data : undefined;
  const detail = typeof data === "string" ? data : data && typeof data === "object" && typeof (data as { details?: unknown }).details === "string" ? (data as { details: string }).details : "";
  return detail && !message.includes(detail) ? `${message} (${detail})` : message;
}

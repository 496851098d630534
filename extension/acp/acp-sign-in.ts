/**
 * Sign-in for an ACP agent that says "authentication required" (-32000) to a session call: its
 * `authMethods` offered in the editor's quick pick (acp-auth.ts builds the rows), the chosen one
 * run (`authenticate`, a stored key in its `_meta`, or a command in a VS Code terminal), and the
 * call made once more. Declined or failed: the agent's own error stands. Abort, the session closing
 * and the agent exiting close what is open (the pick, the confirmation, the terminal wait) and
 * fail the call at once: nothing the user answers afterwards is run.
 */
import type * as acp from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };
import { commandLine, environmentVariables, isAuthRequired, signInMethods, type AgentInvocation, type SignInMethod, type TerminalSignIn } from "./acp-auth";
export { terminalEnvironment, type TerminalSignIn } from "./acp-auth";
import type { SignInGiven, SignOutResult } from "./acp-sign-out";

/** The editor's side (VS Code in the extension; a script in tests). */
export interface SignInUi {
  /**
   * The method the user picks of these (undefined: none). `reason` is the agent's error, foreign
   * text. When `signal` aborts, the pick closes (its answer no longer counts).
   */
  choose(agentName: string, reason: string, methods: readonly SignInMethod[], signal: AbortSignal): Promise<string | undefined>;
  /** The stored key of `variable` (SecretStorage), if any. */
  apiKey(variable: string): Promise<string | undefined>;
  /** The model gateway's route for the key of `variable` (its provider's base URL there, and the token), if one runs. */
  gateway(variable: string): Promise<{ baseUrl: string; token: string } | undefined>;
  /**
   * Shows the whole command line and its variables (`env`: the user's `pi.agent.env`, then the
   * method's own), runs it in a terminal when the user agrees; its exit code (undefined: not run).
   * When `signal` aborts, the confirmation closes and a running terminal is closed.
   */
  runInTerminal(agentName: string, method: TerminalSignIn, signal: AbortSignal): Promise<number | undefined>;
}

/**
 * The gateway sign-in the user chose for an agent, by its name, kept across its starts (the
 * editor's globalState): gemini-cli records the method chosen and does not ask again, but a new
 * process holds no gateway address, so the editor signs it in again at start, without asking.
 */
export interface SignInMemory {
  chosen(agent: string): string | undefined;
  remember(agent: string, methodId: string | undefined): void | PromiseLike<void>;
}

/** Why a sign-in ended without the user's answer. */
export class SignInCancelled extends Error {}

export class SignIn {
  private methods: acp.AuthMethod[] = [];
  /** The sign-in going on, aborted by cancel() and close(). */
  private current: AbortController | undefined;
  /** What the last sign-in of this run gave the agent (Sign Out reports it). */
  given: SignInGiven | undefined;
  /** The session is gone (the bridge disposed, the agent exited): no sign-in starts any more. */
  private closedBecause: string | undefined;
  /** The user's time in sign-in (the quick pick, a terminal login): a start's deadline does not count it. */
  private userMs = 0;
  private askedAt: number | undefined;

  constructor(
    private readonly ui: SignInUi | undefined,
    private readonly invocation: AgentInvocation | undefined,
    private readonly agent: () => acp.ClientConnection["agent"],
    private readonly agentName: () => string,
    /** The user's `pi.agent.env`: a terminal sign-in runs with it, as the agent was started. */
    private readonly userEnv: Readonly<Record<string, string>> = {},
    private readonly memory?: SignInMemory,
  ) {}

  /**
   * At start, before the first session call: the gateway sign-in the user chose for this agent
   * before is made again, without asking (its address and this run's token; never the key). A
   * failure forgets it: the agent then asks, or says why.
   */
  async resume(): Promise<void> {
    const name = this.agentName();
    const chosen = this.memory?.chosen(name);
    if (!chosen || !this.ui || this.closedBecause) return;
    const method = signInMethods(this.methods, this.invocation).find((m) => m.id === chosen);
    const route = method?.kind === "gateway" ? await this.ui.gateway(method.variable) : undefined;
    if (method?.kind !== "gateway" || !route) return;
    try {
      await this.authenticateThroughGateway(method, route);
    } catch {
      await this.memory?.remember(name, undefined);
    }
  }

  private async authenticateThroughGateway(method: Extract<SignInMethod, { kind: "gateway" }>, route: { baseUrl: string; token: string }, options?: { cancellationSignal: AbortSignal; stopWaitingOnCancel: boolean }): Promise<void> {
    // gemini-cli: the key in _meta["api-key"] (here the token), the base URL in _meta.gateway.
    await this.agent().request("authenticate", { methodId: method.id, _meta: { "api-key": route.token, gateway: { baseUrl: route.baseUrl } } }, options);
    this.given = { kind: "gateway", method: method.name, variable: method.variable };
  }

  /** The client capability: terminal methods only when the editor can run them. */
  get capability(): { terminal: boolean } {
    return { terminal: Boolean(this.ui && this.invocation) };
  }

  /** initialize's authMethods. */
  offered(methods: readonly acp.AuthMethod[] | null | undefined): void {
    this.methods = [...(methods ?? [])];
  }

  /**
   * `call`, and after "authentication required" and a sign-in the user chose, `call` once more.
   * `aborted`: the call's own cancellation (a prompt's Abort may come before the agent's refusal):
   * then no sign-in is asked for, the refusal stands.
   */
  async around<T>(call: () => Promise<T>, aborted: () => boolean = () => false): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!isAuthRequired(error) || !this.ui || this.methods.length === 0 || aborted()) throw error;
      if (this.closedBecause) throw this.cancelled(this.closedBecause);
      const controller = new AbortController();
      this.current?.abort(); // one sign-in at a time: an older one no longer counts
      this.current = controller;
      this.askedAt = Date.now();
      try {
        if (!(await this.signIn(reasonOf(error), controller.signal))) throw error;
      } finally {
        this.userMs += Date.now() - this.askedAt;
        this.askedAt = undefined;
        if (this.current === controller) this.current = undefined;
      }
      return call();
    }
  }

  /**
   * `logout` where the agent declares it (`offered`: the spec forbids it otherwise), and what the
   * editor gave the agent this run, for the report (acp-sign-out.ts).
   */
  async signOut(offered: boolean): Promise<SignOutResult> {
    const given = this.given;
    const result = (loggedOut: boolean): SignOutResult => ({ agentName: this.agentName(), loggedOut, ...(given ? { given } : {}) });
    // The editor no longer signs it in at start.
    await this.memory?.remember(this.agentName(), undefined);
    if (!offered) return result(false);
    await this.agent().request("logout", {});
    this.given = undefined;
    return result(true);
  }

  /** Abort: the sign-in going on, if any, is closed and its call fails. */
  cancel(why = "it was aborted"): void {
    this.current?.abort(why);
  }

  /** The session is gone: the sign-in going on is closed, and none starts after. */
  close(why: string): void {
    this.closedBecause ??= why;
    this.cancel(why);
  }

  private cancelled(why: unknown): SignInCancelled {
    return new SignInCancelled(`Sign-in for ${this.agentName()} was cancelled: ${typeof why === "string" ? why : "it was aborted"}.`);
  }

  /** `work`, or the cancellation as soon as `signal` aborts (a UI that ignores the signal is not waited for). */
  private async untilCancelled<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) throw this.cancelled(signal.reason);
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(this.cancelled(signal.reason));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([work, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
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

  /** True when a method was run to its end; throws SignInCancelled when `signal` aborts first. */
  private async signIn(reason: string, signal: AbortSignal): Promise<boolean> {
    const ui = this.ui!;
    const name = this.agentName();
    const methods = signInMethods(this.methods, this.invocation);
    const chosenId = await this.untilCancelled(ui.choose(name, reason, methods, signal), signal);
    const method = methods.find((m) => m.id === chosenId);
    if (!method) return false;
    // An authenticate in flight is cancelled with the sign-in ($/cancel_request), and not waited for.
    const cancellable = { cancellationSignal: signal, stopWaitingOnCancel: true };
    switch (method.kind) {
      case "terminal": {
        const code = await this.untilCancelled(ui.runInTerminal(name, { ...method, userEnv: environmentVariables(this.userEnv) }, signal), signal);
        if (code === undefined) return false;
        if (code !== 0) throw new Error(`Sign-in for ${name} failed: \`${commandLine(method.command, method.args)}\` exited with code ${code}.`);
        this.given = { kind: "terminal", method: method.name, command: commandLine(method.command, method.args) };
        await this.memory?.remember(name, undefined);
        return true;
      }
      case "api-key": {
        if (!method.variable) throw new Error(`${name} wants a key for "${method.provider}", which Pi does not store: sign in another way, or give ${name} its key in its own settings.`);
        const key = await this.untilCancelled(ui.apiKey(method.variable), signal);
        if (!key) throw new Error(`No ${method.variable} is stored: run "Pi: Set API Key" for it, then start ${name} again.`);
        await this.untilCancelled(this.agent().request("authenticate", { methodId: method.id, _meta: { "api-key": key } }, cancellable), signal);
        this.given = { kind: "api-key", method: method.name, variable: method.variable };
        await this.memory?.remember(name, undefined);
        return true;
      }
      case "gateway": {
        const route = await this.untilCancelled(ui.gateway(method.variable), signal);
        if (!route) throw new Error(`No ${method.variable} is stored: run "Pi: Set API Key" for it, then start ${name} again.`);
        await this.untilCancelled(this.authenticateThroughGateway(method, route, cancellable), signal);
        await this.memory?.remember(name, method.id);
        return true;
      }
      case "agent":
        await this.untilCancelled(this.agent().request("authenticate", { methodId: method.id }, cancellable), signal);
        this.given = { kind: "agent", method: method.name };
        await this.memory?.remember(name, undefined);
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

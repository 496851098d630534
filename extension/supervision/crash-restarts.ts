/**
 * What follows a crash (or a failed restart): a start after the policy's back-off, or, past its
 * limit, a notice that offers Restart (closed once the agent is up again). One start is scheduled at a time; any other start or a stop
 * cancels it.
 */
import type * as vscode from "vscode";
import { settings } from "../settings";
import { duration, type AgentNotices } from "../ui/agent-notices";
import type { AgentState } from "./agent-state";
import { RestartPolicy, type RestartPolicyOptions } from "./restart-policy";
import { errorText } from "../../shared/error-text";

export interface CrashRestartsOptions {
  log: vscode.LogOutputChannel;
  agent: AgentState;
  notices: AgentNotices;
  /** Starts the agent (the scheduled restart). */
  start: () => Promise<unknown>;
  policy?: RestartPolicyOptions;
}

export class CrashRestarts implements vscode.Disposable {
  readonly policy: RestartPolicy;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(private readonly options: CrashRestartsOptions) {
    this.policy = new RestartPolicy(options.policy);
  }

  crashed(what: string): void {
    if (this.disposed) return;
    const { log, agent, notices } = this.options;
    const decision = settings.autoRestart ? this.policy.crashed(Date.now()) : undefined;
    if (decision?.restart) {
      log.info(`Restarting the agent in ${decision.delayMs} ms (crash ${decision.crashes} in the window)`);
      agent.setRestart({ at: Date.now() + decision.delayMs });
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.options.start().catch((error: unknown) => this.crashed(errorText(error)));
      }, decision.delayMs);
      notices.crashRestarting(what, decision.delayMs);
      return;
    }
    const message = decision
      ? `${what}. It crashed ${decision.crashes} times within ${duration(this.policy.options.windowMs)} and will not be restarted automatically.`
      : `${what}.`;
    log.error(message);
    agent.setRestart({ gaveUp: true });
    notices.gaveUp(message);
  }

  /** Cancels a scheduled restart (a start or stop from elsewhere). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.options.agent.setRestart(undefined);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}


/**
 * Which session each start of one supervisor opens: the one a restart kept (its recovery), else the
 * one the supervisor was given for its first start (from the list, a terminal handoff); that one
 * only once. Another agent than the last start's (the user changed pi.agent.*) opens none of them:
 * it starts a session of its own, and only the queue the old agent never got goes on.
 */
import * as fs from "node:fs";
import type { Recovery } from "./agent-state";

export interface StartSession {
  /** What the start restores. */
  recovery: Recovery | undefined;
  /** The session file to open (it exists). */
  sessionFile: string | undefined;
  /**
   * The session the user chose: it may be in another folder than the agent's own. One the agent
   * reported itself it has written already (and the agent names it: never a reason to open a
   * folder of its choice).
   */
  chosen: string | undefined;
  /** Another agent starts than the one before. */
  replaced: boolean;
}

export class StartSessions {
  /** The agent the last start ran (launch-args.ts agentIdentity). */
  private startedAgent: string | undefined;

  constructor(
    private initialSessionFile: string | undefined,
    private readonly exists: (file: string) => boolean = fs.existsSync,
  ) {}

  /** The session of a start of `agent` (launch-args.ts agentIdentity), with what the last agent left (`kept`). */
  next(agent: string, kept: Recovery | undefined): StartSession {
    let recovery = kept;
    const replaced = this.startedAgent !== undefined && this.startedAgent !== agent;
    if (replaced) {
      // Only what the user typed and the agent never got goes on (offered again once it is ready).
      recovery = recovery?.queue.length ? { queue: recovery.queue } : undefined;
      this.initialSessionFile = undefined;
    }
    this.startedAgent = agent;
    const wanted = recovery?.sessionFile ?? this.initialSessionFile;
    const chosen = recovery?.sessionFile ? undefined : this.initialSessionFile;
    this.initialSessionFile = undefined;
    return { recovery, sessionFile: wanted && this.exists(wanted) ? wanted : undefined, chosen, replaced };
  }
}

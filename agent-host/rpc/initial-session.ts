import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { SessionManager } from "../session/persistence/session-manager";
import type { CliOptions } from "./cli-options";

/** A session file given as a path, or as (part of) a session id within the session folder. */
function findSession(ref: string, sessionDir: string | undefined): string {
  const asPath = resolve(ref);
  if (existsSync(asPath)) return asPath;
  if (sessionDir && existsSync(sessionDir)) {
    const match = readdirSync(sessionDir).filter((f) => f.endsWith(".jsonl") && f.includes(ref));
    if (match.length === 1) return join(sessionDir, match[0]);
    if (match.length > 1) throw new Error(`Session id "${ref}" is ambiguous: ${match.length} sessions match`);
  }
  throw new Error(`Session not found: ${ref}`);
}

/**
 * Applies --session, --continue, --fork and --session-id. Returns true when an existing session
 * was opened (its model and messages then come from the file).
 */
export function openInitialSession(sessions: SessionManager, options: CliOptions, sessionDir: string | undefined): boolean {
  if (options.session) {
    sessions.open(findSession(options.session, sessionDir));
    return true;
  }
  if (options.fork) {
    sessions.open(findSession(options.fork, sessionDir));
    sessions.forkTo();
    return true;
  }
  if (options.sessionId) {
    const existing = sessionDir && existsSync(sessionDir) ? readdirSync(sessionDir).find((f) => f.endsWith(`_${options.sessionId}.jsonl`)) : undefined;
    if (existing && sessionDir) {
      sessions.open(join(sessionDir, existing));
      return true;
    }
    sessions.startNew(undefined, options.sessionId);
    return false;
  }
  if (options.continue && sessionDir) {
    const recent = SessionManager.mostRecent(sessionDir);
    if (recent) {
      sessions.open(recent);
      return true;
    }
  }
  return false;
}

import { existsSync } from "node:fs";
import type { HostSession } from "./host-session";
import { userText } from "./message-text";

/** Replaces the agent's conversation with the session's current context. */
export function syncAgentWithSession(session: HostSession): void {
  const messages = session.agent.messages;
  messages.splice(0, messages.length, ...session.sessions.context().messages);
}

function requireIdle(session: HostSession, what: string): void {
  if (session.isStreaming) throw new Error(`Cannot ${what} while the agent is running: abort it first`);
}

/** pi forks and clones only from a session file that exists (it is written with the first reply). */
function requireSaved(session: HostSession): void {
  const file = session.sessions.sessionFile;
  if (file && !existsSync(file)) throw new Error("This session has not been saved yet. Wait for the first assistant response before cloning or forking it.");
}

/** A fresh session (optionally recording its parent), with the current model and thinking level. */
export function newSession(session: HostSession, parentSession?: string): { cancelled: boolean } {
  requireIdle(session, "start a new session");
  // A session that never got a reply is not kept (as pi does): nothing to flush before leaving it.
  session.sessions.startNew(parentSession);
  recordModel(session);
  syncAgentWithSession(session);
  return { cancelled: false };
}

export function switchSession(session: HostSession, sessionPath: string): { cancelled: boolean } {
  requireIdle(session, "switch sessions");
  session.sessions.open(sessionPath);
  syncAgentWithSession(session);
  return { cancelled: false };
}

/** User messages of the current branch that a fork can start from. */
export function forkMessages(session: HostSession): { entryId: string; text: string }[] {
  return session.sessions.branch().flatMap((entry) =>
    entry.type === "message" && entry.message.role === "user" ? [{ entryId: entry.id, text: userText(entry.message) }] : [],
  );
}

/** A new session holding everything before the user message `entryId`; returns that message's text. */
export function fork(session: HostSession, entryId: string): { text: string; cancelled: boolean } {
  requireIdle(session, "fork");
  const entry = session.sessions.get(entryId);
  if (!entry || entry.type !== "message" || entry.message.role !== "user") throw new Error("Invalid entry ID for forking");
  const text = userText(entry.message);
  requireSaved(session);
  session.sessions.forkTo(entryId);
  syncAgentWithSession(session);
  return { text, cancelled: false };
}

/** A new session with the whole current branch. */
export function clone(session: HostSession): { cancelled: boolean } {
  requireIdle(session, "clone");
  if (session.sessions.leafId === null) throw new Error("Cannot clone session: no current entry selected");
  requireSaved(session);
  session.sessions.forkTo();
  syncAgentWithSession(session);
  return { cancelled: false };
}

/** oh-my-pi's `branch`: continue in place from before the user message `entryId`. */
export function branchInPlace(session: HostSession, entryId: string): { text: string; cancelled: boolean } {
  requireIdle(session, "branch");
  const entry = session.sessions.get(entryId);
  if (!entry || entry.type !== "message" || entry.message.role !== "user") throw new Error("Invalid entry ID for branching");
  session.sessions.moveLeaf(entry.parentId);
  syncAgentWithSession(session);
  return { text: userText(entry.message), cancelled: false };
}

export function recordModel(session: HostSession): void {
  session.sessions.append({ type: "model_change", provider: session.agent.model.provider, modelId: session.agent.model.id });
  session.sessions.append({ type: "thinking_level_change", thinkingLevel: session.agent.thinkingLevel });
}

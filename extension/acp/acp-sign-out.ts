/**
 * Sign Out of an ACP agent, said plainly. ACP v1 has `logout` (stable since May 2026) for an agent
 * that declares `agentCapabilities.auth.logout`; a client must not call it otherwise. Either way
 * the report says what stays: what the editor gave the agent this run (a gateway token, a key
 * over ACP) ends only with the process (Restart Agent), and a login the agent stores itself (a
 * terminal sign-in, its own method, a choice it records in its settings) is the agent's to clear.
 * Plain: no VS Code, no SDK.
 */
import { notificationText } from "../ui/plain-text";

/** What a sign-in of this run gave the agent (acp-sign-in.ts records it). */
export type SignInGiven =
  | { kind: "agent"; method: string }
  | { kind: "terminal"; method: string; command: string }
  | { kind: "api-key"; method: string; variable: string }
  | { kind: "gateway"; method: string; variable: string };

export interface SignOutResult {
  agentName: string;
  /** `logout` was sent and answered. */
  loggedOut: boolean;
  /** The last sign-in the editor ran for it this run, if any. */
  given?: SignInGiven;
}

/** For a notification: a name on one line (a newline shown as ↵), no link (`](` broken), every character visible. */
const text = (name: string): string => notificationText(name).replace(/↵\n/g, "↵");

/** What the command shows: a message, its detail, and whether Restart Agent is offered (it ends what the process holds). */
export function signOutReport(result: SignOutResult, agentRecord?: string): { message: string; detail: string; restart: boolean } {
  const name = text(result.agentName);
  const given = result.given;
  const held = given?.kind === "gateway"
    ? `This run ${name} holds a token of Pi's model gateway (never your key): Restart Agent ends it (each start has a new one), and the editor no longer signs it in through the gateway when it starts. Your ${given.variable} stays in the editor's secret storage: Pi: Set API Key changes or removes it.`
    : given?.kind === "api-key"
      ? `This run ${name} holds your stored ${given.variable} in memory (given over ACP when you picked "${text(given.method)}"): Restart Agent ends that. Pi: Set API Key changes or removes the stored key.`
      : undefined;
  const own = given?.kind === "terminal"
    ? `You signed in with its own command (${text(given.command)}): the login it stored is its own, and so is signing out of it.`
    : given?.kind === "agent"
      ? `It signed itself in ("${text(given.method)}"): that login is its own, and so is signing out of it.`
      : undefined;
  const record = agentRecord ? `${text(agentRecord)}; Pi does not edit ${name}'s files.` : undefined;
  if (result.loggedOut) {
    return {
      message: `Signed out of ${name}: its next session asks you to sign in again.`,
      detail: [held, record].filter(Boolean).join("\n\n"),
      restart: held !== undefined,
    };
  }
  const none = given ? undefined : `The editor did not sign ${name} in this run: a login it has is its own.`;
  return {
    message: `${name} offers no sign-out over ACP (it does not declare auth.logout): nothing was sent.`,
    detail: [held, own, none, record].filter(Boolean).join("\n\n"),
    restart: held !== undefined,
  };
}

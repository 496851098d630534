/**
 * The question for a host the sandbox's network proxy does not list: "Allow network access to
 * <host> for this session?" through the same client question as the tool sandbox's. The answer
 * (allow or deny) holds for the session only: a new session, a resume or a fork asks again.
 * Requests to the same host while the question is open share it. No client, no answer: refused
 * (and asked again next time). At most `MAX_OPEN` questions are open at once: a command that asks
 * for host after host (a loop, a prompt-injected script) gets refusals, not a wall of dialogs.
 */
import { isPublicAddress } from "../../shared/node/sandbox/net/addresses";
import { isIpLiteral, type Target } from "../../shared/node/sandbox/net/hosts";
import type { AskClient } from "./tool-sandbox";

export const ALLOW_HOST = "Allow for this session";
export const DENY_HOST = "Deny";
export const MAX_OPEN = 3;

export class NetworkAllowances {
  private generation: number | undefined;
  private readonly answers = new Map<string, Promise<boolean | undefined>>();
  private open = 0;

  constructor(
    private readonly ask: AskClient,
    /** Changes with each new, resumed or forked session. */
    private readonly session: () => number | undefined,
  ) {}

  decide = async (target: Target): Promise<boolean> => {
    const generation = this.session();
    if (generation !== this.generation) {
      this.generation = generation;
      this.answers.clear();
    }
    const key = `${target.host}:${target.port}`;
    let answer = this.answers.get(key);
    if (!answer && this.open >= MAX_OPEN) return false;
    if (!answer) {
      const local = isIpLiteral(target.host) && !isPublicAddress(target.host.replace(/^\[|\]$/g, ""));
      const what = local ? " It is an address on this machine or its private network: allowing it lets the command reach the service listening there." : "";
      answer = this.ask(`Allow network access to ${key} for this session?\n\nA sandboxed command asked the sandbox's network proxy for ${key}, which is not in pi.sandbox.allowedHosts.${what}`, [ALLOW_HOST, DENY_HOST]).then(
        (choice) => (choice === ALLOW_HOST ? true : choice === DENY_HOST ? false : undefined),
        () => undefined,
      );
      this.answers.set(key, answer);
      this.open++;
      // Not answered: not remembered.
      void answer.then((value) => {
        this.open--;
        if (value === undefined && this.answers.get(key) === answer) this.answers.delete(key);
      });
    }
    return (await answer) === true;
  };
}

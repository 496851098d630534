/**
 * Project trust decided when project resources are read, not once at start-up. A folder with
 * nothing to protect when the host starts gets no decision then; if a protected resource appears
 * later (a `git pull`, a branch switch, a file a tool wrote), it is not used until the user has
 * been asked about it, with every file that would load (or a decision saved in pi's trust.json,
 * or `defaultProjectTrust`, as at start-up). Until then the project counts as untrusted: a read
 * that comes before the question loads nothing of the project's.
 */
import * as os from "node:os";
import { defaultProjectTrust, describeResources, DONT_LOAD, protectedResources, savedTrust, saveTrust, TRUST_AND_LOAD } from "../../shared/node/project-trust";
import { errorText } from "../../shared/error-text";

/** Asks the client a select question; the answer, or undefined when dismissed or unanswerable. */
export type AskTrust = (title: string, options: string[]) => Promise<string | undefined>;

export class FirstReadTrust {
  private decided: boolean | undefined;

  /** `atStart`: the decision taken at start-up, or undefined when the folder had nothing to protect then. */
  constructor(
    private readonly where: { cwd: string; agentDir: string },
    atStart: boolean | undefined,
    private readonly ask: AskTrust,
    private readonly warn: (message: string) => void,
  ) {
    this.decided = atStart;
  }

  /** Whether project resources may load now: the decision, else only while there is nothing to protect. */
  get trusted(): boolean {
    return this.decided ?? this.pending().length === 0;
  }

  /** Takes the decision if a protected resource has appeared since start-up; call before resources are read. */
  async decide(): Promise<void> {
    if (this.decided !== undefined) return;
    const resources = this.pending();
    if (resources.length === 0) return;
    const { cwd, agentDir } = this.where;
    try {
      const saved = savedTrust(agentDir, cwd);
      if (saved) return void (this.decided = saved.trusted);
    } catch (error) {
      this.warn(`${errorText(error)}; project resources are not loaded`);
      return void (this.decided = false);
    }
    const fallback = defaultProjectTrust(agentDir);
    if (fallback !== "ask") return void (this.decided = fallback === "always");
    const files = describeResources(resources, cwd);
    const title = `Load this folder's Pi project resources? ${cwd}\nThey appeared after the agent started; they change the agent's instructions or run as code:\n${files.join("\n")}`;
    const answer = await this.ask(title, [DONT_LOAD, TRUST_AND_LOAD]);
    if (answer === undefined) return void (this.decided = false); // dismissed: nothing loads in this run, nothing saved
    this.decided = answer === TRUST_AND_LOAD;
    try {
      await saveTrust(agentDir, cwd, this.decided);
    } catch (error) {
      this.warn(`Saving the project trust decision failed: ${errorText(error)}`);
    }
  }

  private pending(): string[] {
    return protectedResources(this.where.cwd, os.homedir());
  }
}

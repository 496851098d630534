import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { defaultProjectTrust, describeResources, DONT_LOAD, piAgentDir, protectedResources, savedTrust, saveTrust, TRUST_AND_LOAD } from "../../shared/node/project-trust";
import { quickPickText } from "../ui/plain-text";
import { errorText } from "../../shared/error-text";


/**
 * Decides, before an agent starts, whether a folder's project code (`.pi/extensions`, `.pi/settings.json`,
 * ...) may load: pi's saved decision (`~/.pi/agent/trust.json`, shared with the pi CLI), else the
 * user's `defaultProjectTrust`, else a question that shows everything that would load, answered
 * once and saved where pi saves it. VS Code's workspace trust alone never loads project code. Dismissing the
 * question loads nothing and is remembered for this window only.
 */
export class ProjectTrust {
  private readonly dismissed = new Set<string>();
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(private readonly log: vscode.LogOutputChannel) {}

  /** true/false: trusted or not; undefined: the folder has nothing to protect. */
  async decide(cwd: string, env: NodeJS.ProcessEnv): Promise<boolean | undefined> {
    const home = os.homedir();
    const resources = protectedResources(cwd, home);
    if (resources.length === 0) return undefined;
    const agentDir = piAgentDir(env, home);
    try {
      const saved = savedTrust(agentDir, cwd);
      if (saved) return saved.trusted;
    } catch (error) {
      this.log.warn(`${errorText(error)}: project resources are not loaded`);
      return false;
    }
    const fallback = defaultProjectTrust(agentDir);
    if (fallback !== "ask") return fallback === "always";
    if (this.dismissed.has(cwd)) return false;
    this.log.info(`Project trust for ${cwd}: asking (${resources.length} protected resources)`);
    let question = this.asking.get(cwd);
    if (!question) {
      question = this.ask(cwd, describeResources(resources, cwd), agentDir).finally(() => this.asking.delete(cwd));
      this.asking.set(cwd, question);
    }
    return question;
  }

  private async ask(cwd: string, files: string[], agentDir: string): Promise<boolean> {
    const choice = await askInQuickPick(cwd, files, path.join(agentDir, "trust.json"));
    if (choice === undefined) {
      this.dismissed.add(cwd);
      this.log.info(`Project trust for ${cwd}: dismissed, nothing loads in this window`);
      return false;
    }
    try {
      await saveTrust(agentDir, cwd, choice);
    } catch (error) {
      this.log.warn(`Saving the project trust decision failed: ${errorText(error)}`);
    }
    this.log.info(`Project trust for ${cwd}: ${choice ? "trusted" : "not trusted"} (saved)`);
    return choice;
  }
}


/**
 * The question as a quick pick (VS Code refuses modal dialogs under test, and a list shows long
 * file lists better): the two answers first, then every file that would load; picking a file
 * opens it to read, and the question stays. Escape: undefined.
 */
function askInQuickPick(cwd: string, files: string[], store: string): Promise<boolean | undefined> {
  type Item = vscode.QuickPickItem & { answer?: boolean; file?: string };
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = `Load this folder's Pi project resources? ${quickPickText(cwd)}`;
    pick.placeholder = "Project extensions run as code in the agent. Pick a file to read it first.";
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = true;
    // "Don't Load" first: Enter on an unread question loads nothing.
    pick.items = [
      { label: DONT_LOAD, answer: false, detail: "Start the agent without them (saved; the pi command line follows it too)" },
      { label: TRUST_AND_LOAD, answer: true, detail: `Load them now and from now on (saved in ${quickPickText(store)})` },
      { label: "What would load", kind: vscode.QuickPickItemKind.Separator },
      ...files.map((file): Item => ({ label: quickPickText(file), file })),
    ];
    let answer: boolean | undefined;
    const subscriptions = [
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0];
        if (item?.file !== undefined) {
          const uri = vscode.Uri.file(path.resolve(cwd, fileOf(item.file)));
          void vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true }).then(undefined, () => undefined);
          return;
        }
        if (item?.answer === undefined) return;
        answer = item.answer;
        pick.hide();
      }),
      pick.onDidHide(() => {
        for (const subscription of subscriptions) subscription.dispose();
        pick.dispose();
        resolve(answer);
      }),
    ];
    pick.show();
  });
}

/** The path part of a listed entry ("... and N more in X" names its folder). */
function fileOf(entry: string): string {
  const more = /^\.\.\. and \d+ more in (.*)$/.exec(entry);
  return more ? more[1]! : entry;
}

import * as vscode from "vscode";

const section = () => vscode.workspace.getConfiguration("pi");

/** Every setting the extension reads, in one place; defaults live in package.json. */
export const settings = {
  /** Empty: the bundled agent host. */
  get agentCommand(): string {
    return section().get<string>("agent.command", "").trim();
  },
  get agentArgs(): string[] {
    return section().get<string[]>("agent.args", []);
  },
  get agentEnv(): Record<string, string> {
    return section().get<Record<string, string>>("agent.env", {});
  },
  get confirmStyle(): "quickPick" | "modal" {
    return section().get<"quickPick" | "modal">("dialogs.confirmStyle", "quickPick");
  },
  get trace(): "off" | "messages" | "verbose" {
    return section().get<"off" | "messages" | "verbose">("trace", "off");
  },
};

/** Changing these restarts the agent. */
export const restartWhenChanged = ["pi.agent.command", "pi.agent.args", "pi.agent.env"] as const;

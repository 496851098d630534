import type { AgentStatus } from "../../shared/webview-protocol";
import { iconsAsText, markdownText } from "../ui/plain-text";

/** Everything the status bar item shows, from the agent's state. */
export interface StatusView {
  status: AgentStatus;
  blockedReason?: string;
  label?: string;
  modelName?: string;
  thinkingLevel?: string;
  sessionName?: string;
  openDialogs: number;
  queued: number;
  notes: string[];
  restartAt?: number;
  gaveUp?: boolean;
  /** The crash was a start that failed: said so (the chat has the reason and Retry). */
  startFailed?: boolean;
}

export interface StatusRender {
  /** One of: restricted, stopped, starting, idle, running, waiting-for-dialog, crashed. */
  state: string;
  text: string;
  /** Markdown with command links (only to `statusCommands`); every foreign string in it escaped. */
  tooltip: string;
  command: string;
  background?: "error" | "warning";
}

/** The only commands the tooltip's links may run (its MarkdownString enables these, nothing else). */
export const statusCommands = ["pi.focusChat", "pi.showLog", "pi.restartAgent", "pi.abort", "pi.steer", "pi.followUp", "pi.switchModel", "pi.newSession", "workbench.trust.manage"] as const;
type StatusCommand = (typeof statusCommands)[number];

const links = (items: [string, StatusCommand][]) => items.map(([title, command]) => `[${title}](command:${command})`).join(" · ");

/** The one render function: state → text, codicon, background, tooltip with command links, click. */
export function renderStatus(view: StatusView): StatusRender {
  // The status bar text draws $(name) as an icon: a backslash keeps a model's name text.
  const model = view.modelName ? `: ${iconsAsText(view.modelName)}` : "";
  // Names come from the agent and from session files: escaped, never markup or links.
  const details: string[] = [];
  if (view.label) details.push(`Agent: ${markdownText(view.label)}`);
  if (view.modelName) details.push(`Model: ${markdownText(view.modelName)}${view.thinkingLevel ? ` (thinking ${markdownText(view.thinkingLevel)})` : ""}`);
  if (view.sessionName) details.push(`Session: ${markdownText(view.sessionName)}`);
  const notes = view.notes.map((note) => `$(warning) ${markdownText(note)}`);
  const tooltip = (headline: string, actions: [string, StatusCommand][]) =>
    [`**Pi agent**: ${headline}`, ...details, ...notes, links(actions)].join("\n\n");
  const common: [string, StatusCommand][] = [["Open Chat", "pi.focusChat"], ["Show Log", "pi.showLog"]];

  if (view.blockedReason) {
    return {
      state: "restricted",
      text: "$(shield) Pi: restricted",
      tooltip: [`**Pi agent**: not started`, markdownText(view.blockedReason), links([["Manage Workspace Trust", "workbench.trust.manage"]])].join("\n\n"),
      command: "workbench.trust.manage",
      background: "warning",
    };
  }
  switch (view.status) {
    case "stopped":
      return { state: "stopped", text: "$(circle-outline) Pi", tooltip: tooltip("stopped", [["Start", "pi.restartAgent"], ...common]), command: "pi.restartAgent" };
    case "starting":
      return { state: "starting", text: "$(loading~spin) Pi: starting", tooltip: tooltip("starting", common), command: "pi.focusChat" };
    case "crashed": {
      if (view.startFailed) {
        return { state: "crashed", text: "$(error) Pi: did not start", tooltip: tooltip("did not start (the chat says why)", [["Retry", "pi.restartAgent"], ...common]), command: "pi.focusChat", background: "error" };
      }
      const restarting = view.restartAt !== undefined;
      const headline = restarting ? "crashed, restarting shortly" : view.gaveUp ? "crashed too often, not restarted" : "crashed";
      return {
        state: "crashed",
        text: restarting ? "$(error) Pi: restarting…" : "$(error) Pi: crashed",
        tooltip: tooltip(headline, [["Restart", "pi.restartAgent"], ...common]),
        command: "pi.restartAgent",
        background: "error",
      };
    }
    case "idle":
    case "running":
      if (view.openDialogs > 0) {
        return {
          state: "waiting-for-dialog",
          text: "$(question) Pi: waiting for you",
          tooltip: tooltip("waiting for your answer to a dialog", [["Abort", "pi.abort"], ...common]),
          command: "pi.focusChat",
          background: "warning",
        };
      }
      if (view.status === "running") {
        const queued = view.queued > 0 ? ` (+${view.queued} queued)` : "";
        return {
          state: "running",
          text: `$(sync~spin) Pi${model}${queued}`,
          tooltip: tooltip("running", [["Steer…", "pi.steer"], ["Follow Up…", "pi.followUp"], ["Abort", "pi.abort"], ...common]),
          command: "pi.focusChat",
        };
      }
      return {
        state: "idle",
        text: `$(sparkle) Pi${model}`,
        tooltip: tooltip("ready", [["Switch Model", "pi.switchModel"], ["New Session", "pi.newSession"], ["Restart", "pi.restartAgent"], ...common]),
        command: "pi.focusChat",
      };
  }
}

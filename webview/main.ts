import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-textarea/index.js";
import "@vscode-elements/elements/dist/vscode-textfield/index.js";
import "@vscode/codicons/dist/codicon.css";
import "./style.css";
import type { FromWebview, ToWebview } from "../shared/webview-protocol";
import { connectToExtension } from "./channel";
import { Composer } from "./composer";
import { FindBar } from "./find-bar";
import { HeaderPickers } from "./header-pickers";
import { HeaderView } from "./header-view";
import { ChangesBar } from "./changes-bar";
import { PlanView } from "./plan-view";
import { QueueView } from "./queue-view";
import { sessionsMenu } from "./sessions-menu";
import { toolCardsButton } from "./tool-cards-button";
import { OlderHistory } from "./older-history";
import { TranscriptView } from "./transcript-view";
import { welcome } from "./welcome";

interface SavedState {
  draft?: string;
  scrollTop?: number;
  atEnd?: boolean;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): SavedState | undefined;
  setState(state: SavedState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
// Messages from the extension arrive after this script has run (handle() is hoisted).
const channel = connectToExtension(vscode, handle);
const post = (message: FromWebview) => {
  // The user's own message: show it, and what comes after, whatever was scrolled to.
  if (message.type === "prompt" || message.type === "bash") transcript.toEnd();
  channel.post(message);
};
let saved: SavedState = vscode.getState() ?? {};
const save = (change: SavedState) => {
  saved = { ...saved, ...change };
  vscode.setState(saved);
};

// A blocked script, style or load inside the view would be a sanitizer hole: report it.
document.addEventListener("securitypolicyviolation", (event) => {
  post({ type: "cspViolation", directive: event.effectiveDirective, blocked: event.blockedURI || "inline", sample: event.sample || undefined });
});

const app = document.getElementById("app")!;
app.innerHTML = `
  <header class="chat-header">
    <div id="status" class="status" data-status="stopped" role="status">Agent stopped</div>
    <div id="session" class="session" hidden></div>
    <div id="model" class="model"></div>
    <div class="header-actions" role="toolbar" aria-label="Chat actions">
      <button type="button" id="sessions-menu" class="icon-button" data-action="sessions-menu" aria-haspopup="menu" aria-expanded="false" aria-label="Sessions" title="Sessions"><span class="codicon codicon-comment-discussion" aria-hidden="true"></span></button>
      <button type="button" id="find-open" class="icon-button" data-action="find-open" aria-label="Find in the conversation (Ctrl+F)" title="Find in the conversation (Ctrl+F)"><span class="codicon codicon-search" aria-hidden="true"></span></button>
      <button type="button" id="tool-cards" class="icon-button" data-action="tool-cards"></button>
    </div>
  </header>
  <div id="find-bar" class="find-bar" role="search" aria-label="Find in the conversation" hidden></div>
  <div class="transcript-wrap">
    <!-- Jump to latest is for the pointer: from the keyboard, End in the transcript goes there (Tab order unchanged). -->
    <section id="transcript" class="transcript" role="log" aria-live="polite" aria-relevant="additions" aria-label="Conversation" tabindex="0"></section>
    <div class="jump-row" hidden><button type="button" id="jump-latest" class="jump-latest" hidden tabindex="-1" aria-label="Jump to latest" title="Jump to the latest output (End in the conversation)"><span class="codicon codicon-arrow-down" aria-hidden="true"></span>Jump to latest</button></div>
  </div>
  <div id="widgets-above" class="widgets" hidden></div>
  <div id="plan" class="plan" hidden></div>
  <div id="changes" class="changes" role="status" hidden></div>
  <div id="queue" class="queue" role="list" aria-label="Queued messages" hidden></div>
  <div class="composer-wrap">
    <div id="completions" class="completions" role="listbox" aria-label="Completions" hidden></div>
    <form id="composer" class="composer">
      <div id="attachments" class="attachments" role="list" aria-label="Attached context" hidden></div>
      <vscode-textarea id="prompt" rows="3" resize="vertical" placeholder="Ask Pi…" aria-label="Message"></vscode-textarea>
      <div class="composer-bar">
        <footer id="footer" class="chat-footer" aria-label="Session usage" hidden></footer>
        <span class="spacer"></span>
        <vscode-button id="abort" secondary disabled hidden aria-label="Abort the agent">Abort</vscode-button>
        <vscode-button id="send">Send</vscode-button>
        <!-- After Send for Tab (the message box's next stop stays Send), shown first in the row. -->
        <span id="mode-slot" class="mode-slot" hidden></span>
      </div>
      <div id="hint" class="hint" aria-live="polite"></div>
    </form>
  </div>
  <div id="widgets-below" class="widgets" hidden></div>`;

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const header = new HeaderView({
  status: byId("status"),
  session: byId("session"),
  model: byId("model"),
  modeSlot: byId("mode-slot"),
  footer: byId("footer"),
  widgetsAbove: byId("widgets-above"),
  widgetsBelow: byId("widgets-below"),
});
const pickers = new HeaderPickers(app, { model: header.modelButton, thinking: header.thinkingButton, mode: header.modeButton }, channel, () => header.mode);
sessionsMenu(app, byId("sessions-menu"), post);
const transcript = new TranscriptView(byId("transcript"), post, (scrollTop, atEnd) => save({ scrollTop, atEnd }), byId("jump-latest"));
const toolCards = toolCardsButton(byId("tool-cards"), (open) => transcript.setToolCardsOpen(open));
const olderHistory = new OlderHistory(transcript.element, post);
// Find searches every entry: those still placeholders rendered, those not sent yet asked for (each batch searched as it comes).
const findBar = new FindBar(byId("find-bar"), transcript.element, () => (olderHistory.askAll(), transcript.renderAll()));
byId("find-open").addEventListener("click", () => findBar.open());
let draftTimer: ReturnType<typeof setTimeout> | undefined;
const composer: Composer = new Composer(
  byId("prompt"),
  byId("send"),
  byId("abort"),
  byId("hint"),
  byId("completions"),
  post,
  (query) => channel.request("mentions", { query }),
  (draft) => {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(() => save({ draft }), 200);
  },
  () => post({ type: "queueRestore" }),
  byId("attachments"),
  app,
  () => pickers.cycleMode(),
  (paths) => channel.request("mentionKinds", { paths }),
);
const queue = new QueueView(byId("queue"), post, (text) => composer.setText(text, true));
const plan = new PlanView(byId("plan"), post, () => composer.focus());
byId("transcript").before(welcome((text) => composer.setText(text, true)));
const changes = new ChangesBar(byId("changes"), post);
byId("composer").addEventListener("submit", (event) => event.preventDefault());
// "Pi: Open Chat" (or Ctrl+') focuses the view: typing then goes to the message box.
const focusIfNowhere = () => {
  if (document.activeElement === document.body || document.activeElement === null) composer.focus();
};
window.addEventListener("focus", focusIfNowhere);
// The user works in this chat: its session becomes the one commands act on (#32). Said on a click
// or a key in it, once until it loses the focus: not on the focus alone, which the workbench
// also hands back on its own (a closing command palette).
let workedIn = false;
const reportWorkedIn = () => {
  if (workedIn) return;
  workedIn = true;
  post({ type: "focused" });
};
window.addEventListener("pointerdown", reportWorkedIn, true);
window.addEventListener("keydown", reportWorkedIn, true);
window.addEventListener("blur", () => (workedIn = false));
// The view may have taken the focus before this script ran (its first opening): no event then.
if (document.hasFocus()) focusIfNowhere();
if (saved.draft) composer.setText(saved.draft, false, false);
let restoredScroll = false;

function handle(message: ToWebview): void {
  switch (message.type) {
    case "status":
      header.setStatus(message.status, message.waiting ?? false, message.detail, message.startFailed ?? false);
      composer.setRunning(message.status === "running");
      return;
    case "reset":
      transcript.setClock(message.now);
      transcript.reset(message.items);
      olderHistory.reset(message.older ?? 0);
      if (!restoredScroll && saved.scrollTop !== undefined) transcript.restoreScroll(saved.scrollTop, saved.atEnd ?? true);
      restoredScroll = true;
      return;
    case "history":
      transcript.prependHistory(message.items);
      return olderHistory.arrived(message.older);
    case "upsert":
      transcript.setClock(message.now);
      return transcript.upsert(message.item, message.after);
    case "remove":
      return transcript.remove(message.key);
    case "append":
      return transcript.append(message.key, message.block, message.blockType, message.text);
    case "output":
      return transcript.output(message.key, message.text, message.replace);
    case "setInput":
      return composer.setText(message.text, message.append);
    case "plan":
      return plan.set(message.phases, message.awaitingApproval ?? false);
    case "changes":
      return changes.set(message.summary);
    case "queue":
      queue.set(message.queue, message.unconfirmed ?? false);
      // Escape takes back only a queue the agent reports (and can clear).
      composer.setQueueLength(message.unconfirmed ? 0 : queue.length);
      return;
    case "header":
      // An agent without permission modes (pi, omp): no hint offers to switch them.
      composer.setModesAvailable(message.header.permissionMode !== undefined);
      document.body.classList.toggle("no-modes", message.header.permissionMode === undefined);
      return header.setHeader(message.header);
    case "commands":
      return composer.setCommands(message.commands);
    case "openPicker":
      return pickers.open(message.picker);
    case "widgets":
      return header.setWidgets(message.widgets);
    case "focus":
      return composer.focus();
    case "addAttachments":
      return composer.addAttachments(message.mentions, message.images);
    case "toolCards":
      return toolCards.set(message.open);
  }
}

post({ type: "ready" });

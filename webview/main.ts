import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-textarea/index.js";
import "./style.css";
import { toWebviewSchemas, type ChatItem, type FromWebview, type ToWebview, type AgentStatus } from "../shared/webview-protocol";
import { renderItem, updateItemText } from "./render";

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const knownTypes = new Set(Object.keys(toWebviewSchemas));

const app = document.getElementById("app")!;
app.innerHTML = `
  <div id="status" class="status" data-status="stopped">Agent stopped</div>
  <section id="transcript" class="transcript" aria-label="Conversation"></section>
  <form id="composer" class="composer">
    <vscode-textarea id="prompt" rows="3" resize="vertical" placeholder="Ask Pi… (Enter to send, Shift+Enter for a new line)" aria-label="Message"></vscode-textarea>
    <div class="actions">
      <vscode-button id="abort" secondary disabled>Abort</vscode-button>
      <vscode-button id="send">Send</vscode-button>
    </div>
  </form>`;

const transcript = document.getElementById("transcript")!;
const statusLine = document.getElementById("status")!;
const prompt = document.getElementById("prompt") as HTMLElement & { value: string };
const sendButton = document.getElementById("send")!;
const abortButton = document.getElementById("abort") as HTMLElement & { disabled: boolean };
const rendered = new Map<string, HTMLElement>();

const statusText: Record<AgentStatus, string> = {
  stopped: "Agent stopped",
  starting: "Starting agent…",
  idle: "Ready",
  running: "Working…",
  crashed: "Agent stopped unexpectedly",
};

function send(): void {
  const text = prompt.value.trim();
  if (!text) return;
  vscode.postMessage({ type: "prompt", text });
  prompt.value = "";
}

sendButton.addEventListener("click", send);
abortButton.addEventListener("click", () => vscode.postMessage({ type: "abort" }));
prompt.addEventListener("keydown", (event: KeyboardEvent) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    send();
  }
});

function upsert(item: ChatItem): void {
  const existing = rendered.get(item.key);
  const element = renderItem(item);
  if (existing) existing.replaceWith(element);
  else transcript.append(element);
  rendered.set(item.key, element);
  scrollToEnd();
}

function scrollToEnd(): void {
  transcript.scrollTop = transcript.scrollHeight;
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = event.data as ToWebview;
  if (!message || typeof message !== "object" || !knownTypes.has((message as { type?: string }).type ?? "")) return;
  switch (message.type) {
    case "status":
      statusLine.dataset.status = message.status;
      statusLine.textContent = message.detail ? `${statusText[message.status]}: ${message.detail}` : statusText[message.status];
      abortButton.disabled = message.status !== "running";
      return;
    case "reset":
      transcript.replaceChildren();
      rendered.clear();
      message.items.forEach(upsert);
      return;
    case "upsert":
      return upsert(message.item);
    case "append": {
      const element = rendered.get(message.key);
      if (element) updateItemText(element, message.text);
      scrollToEnd();
      return;
    }
    case "setInput":
      prompt.value = message.text;
      return;
  }
});

vscode.postMessage({ type: "ready" });

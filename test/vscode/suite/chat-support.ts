// Shared steps of the chat view suites: open the view, start from an empty transcript, type
// into the webview, wait for what it shows.
import * as vscode from "vscode";
import type { MockLlm, RecordedRequest } from "../../support/mock-llm";
import { eventually, usePiAgent, type AgentFixture } from "./agent-fixture";
import { requireUi, ui } from "./ui";

export const chatView = "Chat";
export const promptBox = "vscode-textarea#prompt textarea";

/** Shows the Pi chat and waits until the agent is ready there. */
export async function openChat(): Promise<void> {
  await vscode.commands.executeCommand("pi.focusChat");
  await eventually("the chat to say Ready", async () => (await ui.webviewText(chatView, "#status")) === "Ready" || undefined);
}

/** An empty transcript (the agent's session goes on). */
export async function freshChat(agent: Pick<AgentFixture, "api"> & { llm?: Pick<MockLlm, "discardPending"> }): Promise<void> {
  // A failed test can leave a run going and replies unused: neither may reach the next test.
  if (agent.api.supervisor.status === "running") await vscode.commands.executeCommand("pi.abort");
  await eventually("the agent to be idle", () => agent.api.supervisor.status === "idle");
  agent.llm?.discardPending();
  agent.api.chat.transcript.clear();
  agent.api.chat.post({ type: "setInput", text: "" });
  await openChat();
}

/** Types into the message box and presses `key` (Enter sends, Alt+Enter queues a follow-up). */
export async function typePrompt(text: string, key = "Enter"): Promise<void> {
  await ui.typeInWebview(chatView, promptBox, text);
  await ui.pressKey(key);
}

/** What the message box holds now. */
export async function promptValue(): Promise<string> {
  const { value } = await ui.webviewProperties(chatView, "vscode-textarea#prompt", ["value"]);
  return typeof value === "string" ? value : "";
}

/** Presses Shift+Tab from the message box until the element with `data-action="<action>"` has the focus (a few stops at most). */
export async function shiftTabTo(action: string, stops = 8): Promise<void> {
  await ui.clickInWebview(chatView, promptBox);
  const focused: string[] = [];
  for (let stop = 0; stop < stops; stop++) {
    await ui.pressKey("Shift+Tab");
    const html = String((await ui.webviewProperties(chatView, "#app :focus", ["outerHTML"])).outerHTML);
    if (html.includes(`data-action="${action}"`)) return;
    focused.push(html.slice(0, 80));
  }
  throw new Error(`${action} not reached with Shift+Tab from the message box: ${focused.join(" | ")}`);
}

/** Empties the message box as a user would (select all, delete). */
export async function clearPrompt(): Promise<void> {
  await ui.clickInWebview(chatView, promptBox);
  await ui.pressKey("Control+A");
  await ui.pressKey("Backspace");
}

/** Waits for the text of the first element matching `selector` in the chat to satisfy `check`. */
export async function chatText(what: string, selector: string, check: (text: string) => boolean = () => true, timeoutMs = 20_000): Promise<string> {
  return eventually(what, async () => {
    const text = await ui.webviewText(chatView, selector);
    return check(text) ? text : undefined;
  }, timeoutMs);
}

/** The text of every message of a recorded LLM request, joined. */
export function requestText(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body.messages ?? []);
}

export async function settled(agent: Pick<AgentFixture, "api">): Promise<void> {
  await eventually("the agent to settle", () => agent.api.supervisor.status === "idle", 30_000);
}

/** The workbench's side bar (dragged narrower or wider by its right edge). */
export const sideBar = "#workbench\\.parts\\.sidebar";

/**
 * The side bar dragged to `width` for a suite's tests (`narrow()`), and given its width back after
 * the suite.
 */
export function useSideBarWidth(width: number): { narrow(): Promise<void> } {
  let widthBefore = 0;
  before(async () => {
    await vscode.commands.executeCommand("pi.focusChat");
    widthBefore = (await ui.webviewLayout(chatView, "body")).viewport.width;
  });
  after(async () => {
    if (widthBefore > 0) await ui.dragRightEdge(sideBar, widthBefore + 2).catch(() => undefined);
  });
  return {
    async narrow() {
      const reached = await ui.dragRightEdge(sideBar, width);
      if (Math.abs(reached - width) > 4) throw new Error(`the side bar dragged to ${width} px reached ${reached} px`);
      await eventually("the chat narrowed", async () => (await ui.webviewLayout(chatView, "body")).viewport.width <= width + 2 || undefined);
    },
  };
}

/** DOM properties read from the chat as numbers. */
export const numbers = (props: Record<string, unknown>) => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Number(v)]));

/** Nothing in the chat's document is wider than the view (no sideways scrolling, nothing cut at the right). */
export async function fitsSideways(what: string): Promise<void> {
  const root = numbers(await ui.webviewProperties(chatView, "html", ["scrollWidth", "clientWidth"]));
  if (root.scrollWidth! > root.clientWidth! + 1) throw new Error(`${what}: the chat is ${root.scrollWidth}px wide in a ${root.clientWidth}px view`);
}

export function lastRequest(llm: MockLlm): RecordedRequest | undefined {
  return llm.requests.at(-1);
}

/**
 * The hooks every chat suite shares: a real pi on the scripted LLM with the chat open, the chat
 * cleared before each test (plus `beforeEachTest`), a screenshot of each failure. Returns the
 * fixture once `before` has run.
 */
export function useChatSuite(beforeEachTest: () => PromiseLike<unknown> = async () => undefined): () => AgentFixture {
  return useChatSuiteWith(usePiAgent, beforeEachTest);
}

/** The same hooks with another agent (the bundled host, omp): `start` configures and starts it. */
export function useChatSuiteWith<T extends Pick<AgentFixture, "api" | "dispose">>(start: () => Promise<T>, beforeEachTest: () => PromiseLike<unknown> = async () => undefined): () => T {
  let agent: T | undefined;
  before(async function () {
    requireUi(this);
    agent = await start();
    await openChat();
  });
  beforeEach(async () => {
    await beforeEachTest();
    await freshChat(agent!);
  });
  afterEach(async function () {
    if (this.currentTest?.state === "failed") await ui.screenshot(`failed-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => agent?.dispose());
  return () => agent!;
}

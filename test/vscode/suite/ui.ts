// Typed client of the harness's UI bridge: lets a test inside the extension host act on the
// workbench page as a user would (clicks, keys, quick picks, webviews, screenshots).
import * as http from "node:http";
import {
  harnessEnv,
  type BridgeInfo,
  type SelectorState,
  type TransferFile,
  type UiActionName,
  type UiParams,
  type UiRequest,
  type UiResponse,
  type UiResult,
  type WebviewRef,
} from "../bridge-protocol";

function bridgeInfo(): BridgeInfo | undefined {
  const raw = process.env[harnessEnv.bridge];
  return raw ? (JSON.parse(raw) as BridgeInfo) : undefined;
}

export function uiAvailable(): boolean {
  return bridgeInfo() !== undefined;
}

/**
 * For tests that act on the page. Under @vscode/test-electron there is no Playwright page, so
 * they are skipped there; in the code-server harness a missing bridge is a failure, not a skip.
 */
export function requireUi(context: Mocha.Context): void {
  if (uiAvailable()) return;
  if (process.env.PI_VSCODE_TEST_ELECTRON === "1") context.skip();
  throw new Error(`UI bridge unavailable: ${harnessEnv.bridge} is not set (run via test/vscode/run.mjs)`);
}

export async function call<K extends UiActionName>(action: K, params: UiParams<K>): Promise<UiResult<K>> {
  const info = bridgeInfo();
  if (!info) throw new Error(`UI bridge unavailable: ${harnessEnv.bridge} is not set (run via test/vscode/run.mjs)`);
  const body = JSON.stringify({ action, params } satisfies UiRequest<K>);
  const text = await new Promise<string>((resolve, reject) => {
    const req = http.request(
      `${info.url}/action`,
      { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${info.token}` } },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (data += chunk));
        res.on("end", () => resolve(data));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
  const response = JSON.parse(text) as UiResponse<K>;
  if (!response.ok) throw new Error(`ui.${action}(${JSON.stringify(params)}): ${response.error}`);
  return response.result;
}

/** Workbench actions. Selectors are Playwright selectors on the workbench page. */
export const ui = {
  click: (selector: string) => call("click", { selector }),
  waitForSelector: (selector: string, state: SelectorState = "visible", timeoutMs?: number) =>
    call("waitForSelector", { selector, state, ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
  text: (selector: string) => call("text", { selector }),
  hover: (selector: string) => call("hover", { selector }),
  dragRightEdge: (selector: string, width: number) => call("dragRightEdge", { selector, width }),
  html: (selector: string, timeoutMs?: number) => call("html", { selector, ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
  /** Playwright key names, e.g. "Enter", "Escape", "Control+Shift+P". */
  pressKey: (key: string) => call("pressKey", { key }),
  typeText: (text: string) => call("typeText", { text }),
  clickInWebview: (webview: WebviewRef, selector: string, clickCount?: number) => call("clickInWebview", { webview, selector, ...(clickCount ? { clickCount } : {}) }),
  /** Whether the webview's own document has the focus. */
  webviewFocused: (webview: WebviewRef) => call("webviewFocused", { webview }),
  /** The text selected in a webview. */
  webviewSelection: (webview: WebviewRef) => call("webviewSelection", { webview }),
  typeInWebview: (webview: WebviewRef, selector: string, text: string) =>
    call("typeInWebview", { webview, selector, text }),
  webviewText: (webview: WebviewRef, selector: string) => call("webviewText", { webview, selector }),
  /** DOM properties of an element in a webview: `value` of a textarea, `scrollTop`, ... */
  webviewProperties: (webview: WebviewRef, selector: string, names: string[]) => call("webviewProperties", { webview, selector, names }),
  /** Computed styles, the bounding box of an element of a webview and the webview's viewport (px). */
  webviewLayout: (webview: WebviewRef, selector: string, styles: string[] = []) => call("webviewLayout", { webview, selector, styles }),
  /** Scrolls with the mouse wheel over an element of a webview (negative deltaY: up). */
  wheelInWebview: (webview: WebviewRef, selector: string, deltaY: number) => call("wheelInWebview", { webview, selector, deltaY }),
  /** Pastes files (e.g. an image) on an element of a webview, as a user's Ctrl+V would. */
  pasteInWebview: (webview: WebviewRef, selector: string, files: TransferFile[]) => call("transferInWebview", { webview, selector, event: "paste", files }),
  /** Drops files and/or strings (e.g. `text/uri-list`) on an element of a webview. */
  dropInWebview: (webview: WebviewRef, selector: string, transfer: { files?: TransferFile[]; data?: Record<string, string> }) =>
    call("transferInWebview", { webview, selector, event: "drop", ...transfer }),
  /** Posts `data` to the extension from a webview, bypassing its page's code (malformed-message tests). */
  postFromWebview: (webview: WebviewRef, data: unknown) => call("postFromWebview", { webview, data }),
  /** Labels of the rows of the open quick pick (waits for it to show). */
  quickPickItems: () => call("quickPickItems", {}),
  pickQuickPickItem: (label: string) => call("pickQuickPickItem", { label }),
  /** Types into the open quick input / input box, then presses Enter unless `submit` is false. */
  inputBoxType: (text: string, submit = true) => call("inputBoxType", { text, submit }),
  /** Saves a PNG under .test-artifacts/; returns its absolute path. */
  screenshot: (name: string) => call("screenshot", { name }),
};

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

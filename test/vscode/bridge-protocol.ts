// The UI bridge: tests inside the extension host ask the harness (which holds the Playwright
// page) to act on the workbench as a user would. Platform-free: imported by the harness's
// HTTP server and by the in-host client (suite/ui.ts).

/** A webview, by its title (the tab or view name; substring match) or its index among visible webviews. */
export type WebviewRef = string | number;

export type SelectorState = "attached" | "detached" | "visible" | "hidden";

export interface TransferFile {
  name: string;
  mimeType: string;
  base64: string;
}

/** Every action: its parameters and its result. */
export interface UiActions {
  click: { params: { selector: string }; result: null };
  waitForSelector: { params: { selector: string; state?: SelectorState; timeoutMs?: number }; result: null };
  text: { params: { selector: string }; result: string };
  /** Moves the mouse over an element (hovers, tooltips). */
  hover: { params: { selector: string }; result: null };
  /** Drags the right edge of an element (a part's sash: the side bar's) until the element is `width` px wide, as a user resizing it; returns the width reached. */
  dragRightEdge: { params: { selector: string; width: number }; result: number };
  /** The element's outerHTML (e.g. to check which links a rendered tooltip holds). */
  html: { params: { selector: string; timeoutMs?: number }; result: string };
  pressKey: { params: { key: string }; result: null };
  typeText: { params: { text: string }; result: null };
  /** Clicks an element in a webview; `clickCount` 2 selects a word as a user's double click does. */
  clickInWebview: { params: { webview: WebviewRef; selector: string; clickCount?: number }; result: null };
  /** Whether a webview's own document has the focus (VS Code hands it on a task after focusing the view). */
  webviewFocused: { params: { webview: WebviewRef }; result: boolean };
  /** The text the user has selected in a webview (its window's selection). */
  webviewSelection: { params: { webview: WebviewRef }; result: string };
  typeInWebview: { params: { webview: WebviewRef; selector: string; text: string }; result: null };
  webviewText: { params: { webview: WebviewRef; selector: string }; result: string };
  /** DOM properties of the first match (e.g. a textarea's `value`, `scrollTop`), as JSON values. */
  webviewProperties: { params: { webview: WebviewRef; selector: string; names: string[] }; result: Record<string, unknown> };
  /** Computed style values (`font-family`, `border-top-style`, …) and the bounding box of the first match. */
  webviewLayout: { params: { webview: WebviewRef; selector: string; styles: string[] }; result: { styles: Record<string, string>; box: { top: number; bottom: number; left: number; right: number; width: number; height: number }; viewport: { width: number; height: number } } };
  /** Turns the mouse wheel over an element of a webview, as a user scrolling it would. */
  wheelInWebview: { params: { webview: WebviewRef; selector: string; deltaY: number }; result: null };
  /** Dispatches a `paste` or `drop` event carrying files (base64) and strings on an element in a webview. */
  transferInWebview: { params: { webview: WebviewRef; selector: string; event: "paste" | "drop"; files?: TransferFile[]; data?: Record<string, string> }; result: null };
  /** Posts `data` to the extension as a script in the webview could (not through the page's own code): malformed-message tests. */
  postFromWebview: { params: { webview: WebviewRef; data: unknown }; result: null };
  quickPickItems: { params: Record<string, never>; result: string[] };
  pickQuickPickItem: { params: { label: string }; result: null };
  inputBoxType: { params: { text: string; submit?: boolean }; result: null };
  screenshot: { params: { name: string }; result: string };
}

export type UiActionName = keyof UiActions;
export type UiParams<K extends UiActionName> = UiActions[K]["params"];
export type UiResult<K extends UiActionName> = UiActions[K]["result"];

/** POST body to `${url}/action`; header `authorization: Bearer ${token}`. */
export interface UiRequest<K extends UiActionName = UiActionName> {
  action: K;
  params: UiParams<K>;
}

export type UiResponse<K extends UiActionName = UiActionName> =
  | { ok: true; result: UiResult<K> }
  | { ok: false; error: string };

/** Environment variables through which the harness talks to the in-host test runner. */
export const harnessEnv = {
  /** JSON of BridgeInfo. */
  bridge: "PI_VSCODE_UI_BRIDGE",
  /** File the in-host runner writes the TestResult JSON to. */
  resultFile: "PI_VSCODE_TEST_RESULT",
  /** File the in-host runner appends mocha's reporter output to (the harness echoes it). */
  logFile: "PI_VSCODE_TEST_LOG",
  /** Expected `vscode.version` (for the harness self-test). */
  expectedVersion: "PI_VSCODE_EXPECTED_VERSION",
  /** "1" when mocha may print colours. */
  colors: "PI_VSCODE_TEST_COLORS",
  /** Optional mocha --grep. */
  grep: "PI_VSCODE_TEST_GREP",
  /** The VSIX journey: the extensions folder the VSIX was installed into. */
  installedExtensions: "PI_VSCODE_INSTALLED_EXTENSIONS",
} as const;

export interface BridgeInfo {
  url: string;
  token: string;
}

export interface TestResult {
  passes: number;
  failures: number;
  pending: number;
  durationMs: number;
  failed: { title: string; error: string }[];
}

// Headless Debian chromium driven by playwright-core, opened on the workbench.
import { chromium, type Browser, type Page } from "playwright-core";
import type { DevelopmentOptions } from "./code-server";

export const chromiumPath = process.env.PI_CHROMIUM ?? "/usr/bin/chromium";

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export interface Workbench {
  browser: Browser;
  page: Page;
  /** Every console message and page error, timestamped. */
  consoleLines: string[];
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Merged into the workbench's construction options before the workbench starts. */
  developmentOptions?: DevelopmentOptions;
  headless?: boolean;
  /** More chromium switches (the editor benchmark: `--js-flags=--expose-gc`, precise memory figures). */
  chromiumArgs?: string[];
}

export async function openWorkbench(url: string, options: OpenOptions = {}): Promise<Workbench> {
  const headless = options.headless ?? true;
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless,
    args: [...chromiumArgs, ...(options.chromiumArgs ?? [])],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const consoleLines: string[] = [];
  const stamp = () => new Date().toISOString().slice(11, 23);
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // Functions passed to page.evaluate are compiled by tsx, which wraps inner functions in
    // esbuild's `__name(fn, "name")`: give the page a no-op one.
    await context.addInitScript("globalThis.__name = globalThis.__name || ((fn) => fn);");
    if (options.developmentOptions) await context.addInitScript(withDevelopmentOptions(options.developmentOptions));
    const page = await context.newPage();
    page.on("console", (msg) => consoleLines.push(`${stamp()} [${msg.type()}] ${msg.text()}`));
    page.on("pageerror", (err) => consoleLines.push(`${stamp()} [pageerror] ${err.stack ?? err.message}`));
    page.on("crash", () => consoleLines.push(`${stamp()} [crash] page crashed`));
    // A page the workbench opens (openExternal: an MCP server's sign-in page) loads behind it, as
    // a user's other window would: in front, it left the workbench a background tab whose frames
    // stop, and a later suite's quick pick never laid its rows out (ci-33: permission-modes after
    // the MCP sign-in).
    context.on("page", (opened) => {
      if (opened === page) return;
      consoleLines.push(`${stamp()} [page] opened ${opened.url()}`);
      void page.bringToFront().catch(() => undefined);
    });
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });
    return { browser, page, consoleLines, close: () => browser.close().catch(() => undefined) };
  } catch (err) {
    await browser.close().catch(() => undefined);
    throw err;
  }
}

/**
 * A page script that adds `developmentOptions` to the workbench configuration code-server
 * writes into the page (the `data-settings` of `#vscode-workbench-web-configuration`). The
 * workbench is a module script: it runs after parsing ends, and the document turns
 * "interactive" before that (HTML's "the end"), so the change is read by the workbench.
 * A string, not a function: tsx's compiled functions refer to helpers the page lacks.
 */
export function withDevelopmentOptions(development: DevelopmentOptions): string {
  return `(() => {
  const development = ${JSON.stringify(development)};
  const patch = () => {
    const meta = document.getElementById("vscode-workbench-web-configuration");
    const settings = meta && meta.getAttribute("data-settings");
    if (!settings || settings.startsWith("{{")) return;
    const config = JSON.parse(settings);
    config.developmentOptions = { ...config.developmentOptions, ...development };
    meta.setAttribute("data-settings", JSON.stringify(config));
  };
  document.addEventListener("readystatechange", () => { if (document.readyState === "interactive") patch(); });
})();`;
}

/** Waits until the workbench has rendered (activity bar and status bar present). */
export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.waitForSelector(".monaco-workbench .part.activitybar", { timeout: timeoutMs });
  await page.waitForSelector(".monaco-workbench .part.statusbar", { timeout: timeoutMs });
}

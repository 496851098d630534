// Headless Debian chromium driven by playwright-core, opened on the workbench.
import { chromium, type Browser, type Page } from "playwright-core";

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

export async function openWorkbench(url: string, headless = true): Promise<Workbench> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless,
    args: chromiumArgs,
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
    const page = await context.newPage();
    page.on("console", (msg) => consoleLines.push(`${stamp()} [${msg.type()}] ${msg.text()}`));
    page.on("pageerror", (err) => consoleLines.push(`${stamp()} [pageerror] ${err.stack ?? err.message}`));
    page.on("crash", () => consoleLines.push(`${stamp()} [crash] page crashed`));
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });
    return { browser, page, consoleLines, close: () => browser.close().catch(() => undefined) };
  } catch (err) {
    await browser.close().catch(() => undefined);
    throw err;
  }
}

/** Waits until the workbench has rendered (activity bar and status bar present). */
export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.waitForSelector(".monaco-workbench .part.activitybar", { timeout: timeoutMs });
  await page.waitForSelector(".monaco-workbench .part.statusbar", { timeout: timeoutMs });
}

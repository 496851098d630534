/** Acting on the workbench for the editor benchmark: the command palette, the Running Extensions view. */
import type { Page } from "playwright-core";

/** Runs a command by its palette title (waits for the palette and for the exact row before Enter). */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator(".quick-input-widget input");
  for (let attempt = 1; ; attempt++) {
    // Keys typed while a webview has the focus stay in its iframe: give the focus back to the workbench.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("F1");
    const shown = await input.waitFor({ state: "visible", timeout: 5_000 }).then(() => true, () => false);
    if (shown) break;
    if (attempt === 4) throw new Error(`the command palette did not open (for ${title})`);
  }
  await input.fill(`>${title}`);
  const row = page.locator(".quick-input-widget .monaco-list-row", { hasText: title }).first();
  await row.waitFor({ state: "visible", timeout: 20_000 });
  await row.click();
}

/**
 * The extension's activation time as VS Code reports it in "Developer: Show Running Extensions"
 * (its activate() call, not the workbench's own start-up).
 */
export async function activationTime(page: Page, extensionName: string): Promise<number> {
  await runCommand(page, "Developer: Show Running Extensions");
  const row = page.locator(".runtime-extensions-editor .monaco-list-row", { hasText: extensionName }).first();
  await row.waitFor({ state: "visible", timeout: 20_000 });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const text = (await row.textContent()) ?? "";
    const match = /Activation:\s*([\d.]+)\s*ms/.exec(text);
    if (match) return Number(match[1]);
    if (Date.now() > deadline) throw new Error(`no activation time in the Running Extensions row: ${JSON.stringify(text.slice(0, 200))}`);
    await page.waitForTimeout(200);
  }
}

// The harness side of the UI bridge: a loopback HTTP endpoint (random port, bearer token)
// that performs UiActions on the Playwright page for tests running in the extension host.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { Page } from "playwright-core";
import type { BridgeInfo, TransferFile, UiActionName, UiActions, UiRequest, UiResponse } from "../bridge-protocol";
import { webviewFrame, webviewHostFrame } from "./webviews";

type Handlers = { [K in UiActionName]: (params: UiActions[K]["params"]) => Promise<UiActions[K]["result"]> };

const quickInput = ".quick-input-widget";
const quickInputBox = `${quickInput} .quick-input-box input`;
const quickPickRow = `${quickInput} .monaco-list-row`;
const actionTimeout = 10_000;

export interface Bridge {
  info: BridgeInfo;
  /** One line per action, for the artifacts. */
  journal: string[];
  close(): Promise<void>;
}

/** `page` is read at each action: the bridge can start before the browser opens. */
export async function startBridge(page: () => Page | undefined, screenshotDir: string): Promise<Bridge> {
  const token = randomBytes(24).toString("hex");
  const journal: string[] = [];

  const server = http.createServer((req, res) => {
    const reply = (status: number, body: UiResponse) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/action") return reply(404, { ok: false, error: "POST /action only" });
    if (req.headers.authorization !== `Bearer ${token}`) return reply(401, { ok: false, error: "bad token" });
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      void (async () => {
        let request: UiRequest;
        try {
          request = JSON.parse(body) as UiRequest;
        } catch {
          return reply(400, { ok: false, error: "body is not JSON" });
        }
        const current = page();
        if (!current) return reply(503, { ok: false, error: "the workbench page is not open" });
        const handler = createHandlers(current, screenshotDir)[request.action] as ((p: unknown) => Promise<unknown>) | undefined;
        if (!handler) return reply(400, { ok: false, error: `unknown action ${String(request.action)}` });
        const started = Date.now();
        try {
          const result = (await handler(request.params ?? {})) as UiActions[UiActionName]["result"];
          journal.push(`${new Date().toISOString()} ${request.action} ${JSON.stringify(request.params)} ok ${Date.now() - started} ms`);
          reply(200, { ok: true, result });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          journal.push(`${new Date().toISOString()} ${request.action} ${JSON.stringify(request.params)} FAILED ${message}`);
          reply(200, { ok: false, error: message });
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    info: { url: `http://127.0.0.1:${port}`, token },
    journal,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function createHandlers(page: Page, screenshotDir: string): Handlers {
  const quickPickLabels = async (): Promise<string[]> => {
    await page.waitForSelector(quickPickRow, { state: "visible", timeout: actionTimeout });
    return page.$$eval(quickPickRow, (rows) =>
      rows.map((row) => (row.querySelector(".label-name")?.textContent ?? row.getAttribute("aria-label") ?? "").trim()),
    );
  };
  /** The visible quick input's text (title, rows), or "" when none shows. */
  const quickInputShown = () =>
    page.$$eval(quickInput, (widgets) => (widgets as HTMLElement[]).find((w) => w.getClientRects().length > 0)?.innerText ?? "");
  const rowByLabel = (label: string) =>
    page.locator(quickPickRow).filter({ has: page.locator(".label-name", { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) });

  /**
   * A workbench hover (an action's tooltip, a tree row's description) opened where an earlier
   * action left the mouse can lie over the next target. Pointing at it keeps it open (hovers are
   * sticky), so Playwright's retries never get through: move the mouse off the page's content and
   * let it close first. Only when it covers the target: a hover the test itself opened (the row
   * whose actions it is about to click) stays.
   */
  const uncover = async (selector: string) => {
    const covered = await page
      .locator(selector)
      .first()
      .evaluate((element) => {
        const box = element.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return !!top && !element.contains(top) && !!top.closest(".context-view, .workbench-hover-container, .monaco-hover");
      }, undefined, { timeout: 2_000 }) // not there yet: the action's own wait takes over
      .catch(() => false);
    if (!covered) return;
    await page.mouse.move(0, 0);
    await page.locator(".context-view .monaco-hover, .workbench-hover-container .workbench-hover").first().waitFor({ state: "hidden", timeout: 2_000 }).catch(() => undefined);
  };

  return {
    click: async ({ selector }) => {
      await uncover(selector);
      await page.locator(selector).first().click({ timeout: actionTimeout });
      return null;
    },
    waitForSelector: async ({ selector, state, timeoutMs }) => {
      await page.locator(selector).first().waitFor({ state: state ?? "visible", timeout: timeoutMs ?? actionTimeout });
      return null;
    },
    text: async ({ selector }) => page.locator(selector).first().innerText({ timeout: actionTimeout }),
    hover: async ({ selector }) => {
      await uncover(selector);
      await page.locator(selector).first().hover({ timeout: actionTimeout });
      return null;
    },
    dragRightEdge: async ({ selector, width }) => {
      const element = page.locator(selector).first();
      const box = await element.boundingBox({ timeout: actionTimeout });
      if (!box) throw new Error(`${selector} is not shown`);
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + box.width, y);
      await page.mouse.down();
      await page.mouse.move(box.x + width, y, { steps: 8 });
      await page.mouse.up();
      return (await element.boundingBox())?.width ?? 0;
    },
    html: async ({ selector, timeoutMs }) => page.locator(selector).first().evaluate((element) => element.outerHTML, undefined, { timeout: timeoutMs ?? actionTimeout }),
    pressKey: async ({ key }) => {
      await page.keyboard.press(key);
      return null;
    },
    typeText: async ({ text }) => {
      await page.keyboard.type(text);
      return null;
    },
    clickInWebview: async ({ webview, selector, clickCount }) => {
      const frame = await webviewFrame(page, webview, actionTimeout);
      await frame.locator(selector).first().click({ timeout: actionTimeout, ...(clickCount ? { clickCount } : {}) });
      return null;
    },
    webviewFocused: async ({ webview }) => {
      const frame = await webviewFrame(page, webview, actionTimeout);
      return frame.locator("body").evaluate(() => document.hasFocus(), undefined, { timeout: actionTimeout });
    },
    webviewSelection: async ({ webview }) => {
      const frame = await webviewFrame(page, webview, actionTimeout);
      return frame.locator("body").evaluate(() => window.getSelection()?.toString() ?? "", undefined, { timeout: actionTimeout });
    },
    typeInWebview: async ({ webview, selector, text }) => {
      const frame = await webviewFrame(page, webview, actionTimeout);
      const target = frame.locator(selector).first();
      await target.click({ timeout: actionTimeout });
      await target.pressSequentially(text, { timeout: actionTimeout });
      return null;
    },
    webviewText: async ({ webview, selector }) => {
      const frame = await webviewFrame(page, webview, actionTimeout);
      return frame.locator(selector).first().innerText({ timeout: actionTimeout });
    },
    webviewProperties: async ({ webview, selector, names }) => {
      const frame = await webviewFrame(page, webview, actionTimeout);
      return frame.locator(selector).first().evaluate((element, wanted) => {
        const values: Record<string, unknown> = {};
        for (const name of wanted) values[name] = (element as unknown as Record<string, unknown>)[name];
        return JSON.parse(JSON.stringify(values)) as Record<string, unknown>;
      }, names, { timeout: actionTimeout });
    },
    webviewLayout: async ({ webview, selector, styles }) => {
      const frame = await webviewFrame(page, webview, actionTimeout);
      return frame.locator(selector).first().evaluate((element, wanted) => {
        const computed = getComputedStyle(element);
        const r = element.getBoundingClientRect();
        return {
          styles: Object.fromEntries(wanted.map((name) => [name, computed.getPropertyValue(name)])),
          box: { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height },
          viewport: { width: window.innerWidth, height: window.innerHeight },
        };
      }, styles, { timeout: actionTimeout });
    },
    wheelInWebview: async ({ webview, selector, deltaY }) => {
      const frame = await webviewFrame(page, webview, actionTimeout);
      await frame.locator(selector).first().hover({ timeout: actionTimeout });
      await page.mouse.wheel(0, deltaY);
      return null;
    },
    transferInWebview: async ({ webview, selector, event, files, data }) => {
      const frame = await webviewFrame(page, webview, actionTimeout);
      await frame.locator(selector).first().evaluate(dispatchTransfer, { event, files: files ?? [], data: data ?? {} });
      return null;
    },
    postFromWebview: async ({ webview, data }) => {
      const host = await webviewHostFrame(page, webview, actionTimeout);
      // What the content's acquireVsCodeApi().postMessage calls (VS Code's webview pre/index.html).
      await host.locator("body").evaluate((_body, message) => {
        const relay = window as unknown as { __vscode_post_message__(command: string, data: unknown): void };
        relay.__vscode_post_message__("onmessage", { message });
      }, data);
      return null;
    },
    quickPickItems: quickPickLabels,
    pickQuickPickItem: async ({ label }) => {
      await page.waitForSelector(quickPickRow, { state: "visible", timeout: actionTimeout });
      if ((await rowByLabel(label).count()) === 0) {
        // Rows are virtualised: filter so that the item is rendered.
        await page.locator(quickInputBox).fill(label);
      }
      const before = await quickInputShown();
      // The mouse left where an earlier click put it can hold a row's hover open (a VS Code tool's
      // description), which then lies over the row to click: move it off the page's content first.
      await page.mouse.move(0, 0);
      await rowByLabel(label).first().click({ timeout: actionTimeout });
      // The extension answers, then hides the pick (or shows its next step) a round trip later:
      // until then the answered pick is still on screen, and a test reading "the next question"
      // would read this one. Wait for it to go or change (a row that does nothing changes nothing).
      await page
        .waitForFunction(
          ([selector, shown]) => {
            const widget = [...document.querySelectorAll<HTMLElement>(selector)].find((w) => w.getClientRects().length > 0);
            return !widget || widget.innerText !== shown;
          },
          [quickInput, before] as const,
          { timeout: 3_000, polling: 50 },
        )
        .catch(() => undefined);
      return null;
    },
    inputBoxType: async ({ text, submit }) => {
      const input = page.locator(quickInputBox);
      await input.waitFor({ state: "visible", timeout: actionTimeout });
      await input.fill("");
      await input.pressSequentially(text);
      if (submit !== false) await input.press("Enter");
      return null;
    },
    screenshot: async ({ name }) => {
      fs.mkdirSync(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, `${name.replace(/[^\w.-]+/g, "_")}.png`);
      await page.screenshot({ path: file });
      return file;
    },
  };
}

/** Runs in the webview: a paste or drop event with a DataTransfer holding the files and strings. */
function dispatchTransfer(element: Element, args: { event: "paste" | "drop"; files: TransferFile[]; data: Record<string, string> }): void {
  const transfer = new DataTransfer();
  for (const file of args.files) {
    const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], file.name, { type: file.mimeType }));
  }
  for (const [type, value] of Object.entries(args.data)) transfer.setData(type, value);
  const init = { bubbles: true, cancelable: true, composed: true };
  element.dispatchEvent(args.event === "paste" ? new ClipboardEvent("paste", { ...init, clipboardData: transfer }) : new DragEvent("drop", { ...init, dataTransfer: transfer }));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Finds a webview's iframes. The workbench overlays each webview's outer `iframe.webview`
// on the part that shows it; the extension's document lives in its inner `#active-frame`.
// A title matches an editor tab, a view pane header or a side bar / panel title; the visible
// webview overlapping that area most is the one meant.
import type { FrameLocator, Page } from "playwright-core";
import type { WebviewRef } from "../bridge-protocol";

export async function webviewFrame(page: Page, ref: WebviewRef, timeoutMs = 10_000): Promise<FrameLocator> {
  return (await webviewHostFrame(page, ref, timeoutMs)).frameLocator("#active-frame");
}

/** The frame around a webview's content: VS Code's host page, which relays the content's messages to the extension. */
export async function webviewHostFrame(page: Page, ref: WebviewRef, timeoutMs = 10_000): Promise<FrameLocator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const name = await page.evaluate(findWebviewName, ref);
    if (name) return page.frameLocator(`iframe.webview[name="${name}"]`);
    if (Date.now() > deadline) {
      const visible = await page.evaluate(describeWebviews);
      throw new Error(`no visible webview matches ${JSON.stringify(ref)}; visible webviews: ${visible}`);
    }
    await page.waitForTimeout(150);
  }
}

/** Runs in the page. Returns the outer iframe's `name` (unique per webview) or null. */
function findWebviewName(ref: string | number): string | null {
  const visible = Array.from(document.querySelectorAll<HTMLIFrameElement>("iframe.webview")).filter((frame) => {
    const rect = frame.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 && frame.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  });
  if (typeof ref === "number") return visible[ref]?.name ?? null;

  const wanted = ref.toLowerCase();
  const matches = (el: Element | null) => {
    const label = `${el?.getAttribute("aria-label") ?? ""} ${el?.textContent ?? ""}`.toLowerCase();
    return label.includes(wanted);
  };
  const areas: DOMRect[] = [];
  for (const tab of Array.from(document.querySelectorAll(".tabs-container .tab.active, .title-label"))) {
    if (!matches(tab)) continue;
    const group = tab.closest(".editor-group-container");
    const body = group?.querySelector(".editor-container");
    if (body) areas.push(body.getBoundingClientRect());
  }
  for (const pane of Array.from(document.querySelectorAll(".pane"))) {
    if (matches(pane.querySelector(".pane-header"))) {
      const body = pane.querySelector(".pane-body");
      if (body) areas.push(body.getBoundingClientRect());
    }
  }
  for (const part of Array.from(document.querySelectorAll(".part.sidebar, .part.auxiliarybar, .part.panel"))) {
    if (matches(part.querySelector(".composite.title"))) {
      const content = part.querySelector(".content");
      if (content) areas.push(content.getBoundingClientRect());
    }
  }
  let best: { name: string; overlap: number } | null = null;
  for (const frame of visible) {
    const r = frame.getBoundingClientRect();
    for (const a of areas) {
      const w = Math.min(r.right, a.right) - Math.max(r.left, a.left);
      const h = Math.min(r.bottom, a.bottom) - Math.max(r.top, a.top);
      const overlap = w > 0 && h > 0 ? w * h : 0;
      if (overlap > 0 && (!best || overlap > best.overlap)) best = { name: frame.name, overlap };
    }
  }
  return best?.name ?? null;
}

/** Runs in the page: a short description of the visible webviews, for error messages. */
function describeWebviews(): string {
  const frames = Array.from(document.querySelectorAll<HTMLIFrameElement>("iframe.webview"));
  const shown = frames
    .filter((f) => f.checkVisibility({ visibilityProperty: true }))
    .map((f, i) => {
      const r = f.getBoundingClientRect();
      const ext = new URL(f.src, location.href).searchParams.get("extensionId") ?? "?";
      return `#${i} ${ext} at ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
    });
  return `${shown.length} of ${frames.length} [${shown.join("; ")}]`;
}

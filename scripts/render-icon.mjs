#!/usr/bin/env node
// Renders media/icon.png (the Marketplace icon, 256×256) from the activity bar's glyph
// media/pi.svg: white strokes on a rounded dark tile, drawn by headless chromium.
//   node scripts/render-icon.mjs
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const media = join(import.meta.dirname, "..", "media");
const glyph = readFileSync(join(media, "pi.svg"), "utf8").replace(/<svg /, '<svg style="width:176px;height:176px;color:#fff" ');
const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:256px;height:256px;border-radius:48px;display:flex;align-items:center;justify-content:center;
background:linear-gradient(135deg,#2b5cab,#17315e)">${glyph}</div></body></html>`;

const browser = await chromium.launch({ executablePath: process.env.PI_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 256, height: 256 } });
  await page.setContent(html);
  await page.screenshot({ path: join(media, "icon.png"), omitBackground: true });
} finally {
  await browser.close();
}
console.log(`wrote ${join(media, "icon.png")}`);

import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";

/**
 * Runs `work` under chromium's CPU profiler when $BENCH_PROFILE_DIR is set, and writes the profile
 * there as `<name>.cpuprofile` (the page's renderer: the workbench and its same-origin webviews);
 * with $BENCH_TRACE_DIR, a chromium trace instead (`<name>.trace.json`: style, layout, paint per frame).
 */
export async function profiled<T>(page: Page, name: string, work: () => Promise<T>): Promise<T> {
  const traceDir = process.env.BENCH_TRACE_DIR;
  const browser = page.context().browser();
  if (traceDir && browser) {
    // A chromium trace of the same (style, layout, paint, observers per frame): `<name>.trace.json`.
    fs.mkdirSync(traceDir, { recursive: true });
    await browser.startTracing(page, { path: path.join(traceDir, `${name}.trace.json`), categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "v8.execute"] });
    try {
      return await work();
    } finally {
      await browser.stopTracing();
    }
  }
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return work();
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    const result = await work();
    const { profile } = await cdp.send("Profiler.stop");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    return result;
  } finally {
    await cdp.detach();
  }
}

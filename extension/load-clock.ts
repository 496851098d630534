// Imported first by main.ts, so its top level runs before any other module of the bundle: when
// its modules began to run, for the activation figure when the bundle was not loaded through
// dist/extension.js (extension/start.ts measures its load itself). Issue 31's goal: ≤ 30 ms.
import { performance } from "node:perf_hooks";

export const moduleLoadedAt = performance.now();

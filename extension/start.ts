/**
 * dist/extension.js, what VS Code loads: runs the extension's bundle (dist/extension-main.js)
 * with V8's code cache from an earlier window (shared/node/code-cache.ts), so that activation
 * deserializes the code it compiled then instead of compiling the bundle again. Only our files are
 * ever cached this way: Node's own compile cache would be the whole extension host's, every other
 * extension's too. The cache is written once per build, a while after activation, so that it
 * holds what activating and the first chat compiled; so are the files apart that it loads later.
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type * as vscode from "vscode";
import { privateCacheDir, runWithCodeCache } from "../shared/node/code-cache";
import type * as Main from "./main";

const loadStartedAt = performance.now();
const SAVE_AFTER_MS = 20_000;
const file = path.join(__dirname, "extension-main.js");
const dir = process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : privateCacheDir("pi-agent-vscode");
/**
 * Files beside the bundle that it requires when first needed (esbuild.mjs's libraries apart, the
 * frame checks at the first frame, the ACP SDK at the first ACP agent): through the cache too,
 * each written a while after its first load (the frame checks compile in ~11 ms, ~2 from it).
 */
const FILES_APART = new Set(["./client-validators.js", "./diff.js", "./ajv.js", "./proper-lockfile.js", "./acp-sdk.js"]);
const pendingSaves = new Set<NodeJS.Timeout>();
function saveLater(save: () => void): void {
  const timer = setTimeout(() => {
    pendingSaves.delete(timer);
    save();
  }, SAVE_AFTER_MS);
  timer.unref();
  pendingSaves.add(timer);
}
const loaded = dir
  ? runWithCodeCache(file, dir, { filesApart: FILES_APART, onFileApart: (_file, apart) => apart.save && saveLater(apart.save) })
  : { exports: (require as (id: string) => unknown)(file), save: undefined, cache: "off" as const };
const main = loaded.exports as typeof Main;
/** Reading, compiling (or taking from the cache) and running the bundle's modules: activation's first part. */
const loadMs = performance.now() - loadStartedAt;

export function activate(context: vscode.ExtensionContext): Main.PiExtensionApi {
  const api = main.activate(context, { ms: loadMs, codeCache: loaded.cache });
  if (loaded.save) saveLater(loaded.save);
  context.subscriptions.push({
    dispose: () => {
      for (const timer of pendingSaves) clearTimeout(timer);
      pendingSaves.clear();
    },
  });
  return api;
}

export function deactivate(): Promise<void> {
  return main.deactivate();
}

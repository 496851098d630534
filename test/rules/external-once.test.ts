// The bundles' plugin that imports each of Node's modules once (scripts/external-once.mjs): every
// kind of import of a Node module must still see what Node gives. A default import went through as
// `undefined` (the MCP SDK's `import process from "node:process"`: MCP servers did not start in a
// host bundled with it), and the build said nothing.
import * as assert from "node:assert/strict";
import * as esbuild from "esbuild";

async function runBundled(source: string): Promise<unknown> {
  const { externalOnce } = await import("../../scripts/external-once.mjs");
  const result = await esbuild.build({
    stdin: { contents: source, loader: "js", resolveDir: process.cwd() },
    bundle: true, platform: "node", format: "cjs", write: false, logLevel: "silent", plugins: [externalOnce],
  });
  const module = { exports: {} as Record<string, unknown> };
  new Function("module", "exports", "require", result.outputFiles[0]!.text)(module, module.exports, require);
  return module.exports.out;
}

describe("rules: the bundles' one import of each Node module", () => {
  it("a default import is the module, as Node gives it", async () => {
    assert.equal(await runBundled(`import process from "node:process"; export const out = process.platform;`), process.platform);
    assert.equal(await runBundled(`import EventEmitter from "node:events"; export const out = typeof new EventEmitter().on;`), "function");
  });

  it("a require() inside a function is Node's own module, not a copy made at each call", async () => {
    const out = await runBundled(`export const out = (() => require("node:os"))();`);
    assert.equal(out, require("node:os"));
  });

  it("named and namespace imports, from two modules that share it", async () => {
    const out = await runBundled(`import { platform } from "node:os"; import * as os from "node:os"; export const out = [platform(), os.platform(), os.EOL];`);
    assert.deepEqual(out, [process.platform, process.platform, "\n"]);
  });
});

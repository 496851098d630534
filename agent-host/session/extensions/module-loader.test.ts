import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { createCompiler, pickBackend, type CompilerBackend, type ExtensionCompiler } from "./compiler";
import { importExtension } from "./module-loader";
import type { ExtensionAPI } from "./types";

/** Runs a factory against a recording stand-in for the API and gives back what it registered. */
async function run(factory: (pi: ExtensionAPI) => unknown): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  const pi = new Proxy({} as ExtensionAPI, {
    get: (_t, key: string) => (...args: unknown[]) => void (seen[key] = args.length === 1 ? args[0] : args),
  });
  await factory(pi);
  return seen;
}

for (const backend of ["native", "wasm"] as CompilerBackend[]) {
  describe(`extension modules compiled by esbuild (${backend})`, function () {
    this.timeout(30_000);
    let root: string;
    let compiler: ExtensionCompiler;
    const file = (rel: string, text: string) => {
      const path = join(root, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    };

    before(async () => {
      compiler = await createCompiler(backend);
      assert.equal(compiler.backend, backend);
    });
    after(() => compiler.dispose());
    beforeEach(() => (root = mkdtempSync(join(tmpdir(), `ext-load-${backend}-`))));
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it("loads TypeScript with types, enums and relative imports (./x, ./y.js → y.ts, a folder index, JSON)", async () => {
      file("lib/util.ts", "export enum Level { Low = 1, High = 2 }\nexport const twice = (n: number): number => n * 2;");
      file("lib/more.ts", "export const more: string = 'more';");
      file("lib/data.json", '{ "answer": 42 }');
      file("nested/index.ts", "export default 'nested';");
      const entry = file(
        "ext.ts",
        `import { Level, twice } from "./lib/util";
         import { more } from "./lib/more.js";
         import data from "./lib/data.json";
         import nested from "./nested";
         interface Api { registerCommand(name: string, options: unknown): void }
         export default function (pi: Api): void {
           pi.registerCommand("facts", { value: [twice(Level.High), more, data.answer, nested] });
         }`,
      );
      const seen = await run(await importExtension(entry, compiler));
      assert.deepEqual(seen.registerCommand, ["facts", { value: [4, "more", 42, "nested"] }]);
    });

    it("supplies pi's virtual modules: typebox, pi-ai's StringEnum, pi-coding-agent helpers, inert pi-tui components", async () => {
      const entry = file(
        "ext.ts",
        `import { Type } from "typebox";
         import { Type as SinclairType } from "@sinclair/typebox";
         import { StringEnum } from "@earendil-works/pi-ai";
         import { defineTool, isToolCallEventType, withFileMutationQueue } from "@earendil-works/pi-coding-agent";
         import { Text, Container } from "@mariozechner/pi-tui";
         export default async function (pi: any) {
           const tool = defineTool({ name: "t", parameters: Type.Object({ mode: StringEnum(["a", "b"] as const), n: SinclairType.Number() }) });
           const text = new Text("hi", 0, 0);
           const order: number[] = [];
           await Promise.all([withFileMutationQueue("/f", async () => { await new Promise((r) => setTimeout(r, 10)); order.push(1); }), withFileMutationQueue("/f", async () => order.push(2))]);
           pi.registerTool({ schema: tool.parameters, gate: isToolCallEventType("bash", { toolName: "bash" }), rendered: text.render(80), container: typeof Container, order });
         }`,
      );
      const seen = (await run(await importExtension(entry, compiler))).registerTool as Record<string, unknown>;
      const schema = seen.schema as { type: string; properties: Record<string, Record<string, unknown>> };
      assert.equal(schema.type, "object");
      assert.deepEqual(JSON.parse(JSON.stringify(schema.properties.mode)), { type: "string", enum: ["a", "b"] });
      assert.equal(schema.properties.n?.type, "number");
      assert.deepEqual([seen.gate, seen.rendered, seen.container, seen.order], [true, [], "function", [1, 2]]);
    });

    it("resolves packages from the extension's own node_modules and Node built-ins at run time; import.meta works", async () => {
      file("node_modules/left-pad-lite/package.json", JSON.stringify({ name: "left-pad-lite", main: "main.js" }));
      file("node_modules/left-pad-lite/main.js", "module.exports = (s, n) => s.padStart(n, '.');");
      const entry = file(
        "ext.ts",
        `import pad from "left-pad-lite";
         import { basename } from "node:path";
         export default (pi: any) => pi.setSessionName([pad("x", 3), basename(import.meta.filename), import.meta.url].join(" "));`,
      );
      const seen = await run(await importExtension(entry, compiler));
      assert.equal(seen.setSessionName, `..x ext.ts ${pathToFileURL(entry).href}`);
    });

    it("accepts module.exports = factory (CommonJS) and plain JavaScript", async () => {
      const entry = file("ext.js", "module.exports = function (pi) { pi.appendEntry('cjs'); };");
      assert.equal((await run(await importExtension(entry, compiler))).appendEntry, "cjs");
    });

    it("refuses a module without a factory, and reports syntax errors and missing imports with the file", async () => {
      const none = file("none.ts", "export const x = 1;");
      await assert.rejects(importExtension(none, compiler), { message: `Extension does not export a valid factory function: ${none}` });
      const broken = file("broken.ts", "export default function (pi: any) { const x: number = ; }");
      await assert.rejects(importExtension(broken, compiler), (e: Error) => e.message.includes("broken.ts") && /Unexpected/.test(e.message));
      const missing = file("missing.ts", "import { x } from './nowhere';\nexport default () => x;");
      await assert.rejects(importExtension(missing, compiler), (e: Error) => e.message.includes("missing.ts") && /Could not resolve "\.\/nowhere"/.test(e.message));
    });
  });
}

describe("esbuild backend choice", () => {
  it("uses native esbuild when it resolves, unless PI_EXTENSION_COMPILER says otherwise", () => {
    assert.equal(pickBackend({}), "native");
    assert.equal(pickBackend({ PI_EXTENSION_COMPILER: "wasm" }), "wasm");
    assert.equal(pickBackend({ PI_EXTENSION_COMPILER: "native" }), "native");
  });
});

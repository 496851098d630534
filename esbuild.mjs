// Builds the three programs and the protocol schema document into dist/.
//   node esbuild.mjs               development build (source maps)
//   node esbuild.mjs --production  minified, with source maps
//   node esbuild.mjs --watch       rebuild on change
import * as esbuild from "esbuild";
import { copyFileSync, mkdirSync, writeFileSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { writeThirdPartyNotices } from "./scripts/third-party-notices.mjs";
import { externalOnce } from "./scripts/external-once.mjs";

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");
const root = import.meta.dirname;
const dist = join(root, "dist");
const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;

const common = {
  bundle: true,
  minify: production,
  sourcemap: true,
  sourcesContent: !production,
  logLevel: "warning",
  define: { "process.env.PI_VSCODE_VERSION": JSON.stringify(version) },
  // Each bundle's `/*! */` comments in <bundle>.LEGAL.txt; every bundled package's license in
  // THIRD-PARTY-NOTICES.txt, from the metafiles (scripts/third-party-notices.mjs).
  legalComments: "linked",
  metafile: true,
};

/**
 * Libraries the host needs only for some work, each bundled into a file of its own in dist/ that
 * the host bundles require when first needed, so start-up neither reads nor deserializes them:
 * AJV (a quarter of the host's code) to compile a schema that was not compiled at build time,
 * e.g. an extension tool's; `yaml` for the first skill's or prompt template's frontmatter;
 * `ignore` for the first ignore file in a skill or prompt folder or in a find/grep walk;
 * `web-tree-sitter` for the first permission question about a bash command (its .wasm and the
 * bash grammar's are copied to dist/tree-sitter/ by copyTreeSitterWasm); `diff` for the first
 * edit's diff or protected-path question; `minimatch` for find's or grep's first glob without fd/rg; `proper-lockfile` for the first project-trust decision
 * saved (pi's trust.json lock). The extension bundles it inline, required lazily too (esbuild runs
 * a CommonJS module's body on its first require).
 */
const LIBRARIES_APART = {
  ajv: "node_modules/ajv/dist/ajv.js",
  yaml: "node_modules/yaml/dist/index.js",
  ignore: "node_modules/ignore/index.js",
  "web-tree-sitter": "node_modules/web-tree-sitter/web-tree-sitter.cjs",
  diff: "node_modules/diff/libcjs/index.js",
  minimatch: "node_modules/minimatch/dist/commonjs/index.js",
  "proper-lockfile": "node_modules/proper-lockfile/index.js",
};
const librariesApart = (fromOutdir) => ({
  name: "libraries-apart",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${Object.keys(LIBRARIES_APART).join("|")})$`) }, ({ path }) => ({ path: `${fromOutdir}/${path}.js`, external: true }));
  },
});

/**
 * Libraries apart that the extension's bundle loads only when first called, not at activation:
 * `import { diffArrays } from "diff"` becomes a function that requires ./diff.js and calls it
 * (an import of a library apart is otherwise a require run with the bundle's modules). Only the
 * functions named here can be imported (the build fails on any other name).
 */
const LAZY_LIBRARIES = { diff: ["diffArrays", "structuredPatch"] };
const lazyLibraries = {
  name: "lazy-libraries",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${Object.keys(LAZY_LIBRARIES).join("|")})$`) }, ({ path, namespace }) =>
      namespace === "lazy-library" ? { path: `./${path}.js`, external: true } : { path, namespace: "lazy-library" },
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-library" }, ({ path }) => ({
      contents: [`let library;`, `const load = () => (library ??= require(${JSON.stringify(path)}));`, ...LAZY_LIBRARIES[path].map((name) => `export function ${name}(...args) { return load().${name}(...args); }`)].join("\n"),
      loader: "js",
    }));
  },
};

/**
 * The extension's bundle with only ASCII in it: one other character (in a comment or a regular
 * expression, which esbuild leaves as written) makes V8 hold the whole 1.3 MB source as a two-byte
 * string, and decoding it at each activation ~2 ms slower. Each is written as its \\u escape,
 * which means the same character in a comment, a string or a regular expression.
 */
const asciiOnly = {
  name: "ascii-only",
  setup(build) {
    build.onEnd((result) => {
      for (const out of Object.keys(result.metafile?.outputs ?? {}).filter((file) => file.endsWith(".js"))) {
        const text = readFileSync(join(root, out), "utf8");
        if (/[^\x00-\x7f]/.test(text)) writeFileSync(join(root, out), text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
      }
    });
  },
};


/** Programs the agent host runs: CommonJS for Node 20+, `__PI_BUNDLED__` set (see providers/load.ts). */
const hostBundle = {
  ...common,
  platform: "node",
  format: "cjs",
  target: "node20",
  mainFields: ["module", "main"],
  define: { ...common.define, __PI_BUNDLED__: "true" },
  plugins: [librariesApart(".")],
};

/** @type {esbuild.BuildOptions[]} */
const programs = [
  {
    ...common,
    // extension.js only runs extension-main.js through V8's code cache (extension/start.ts).
    entryPoints: { extension: "extension/start.ts", "extension-main": "extension/main.ts" },
    define: { ...common.define, __PI_BUNDLED__: "true" },
    platform: "node",
    format: "cjs",
    target: "node20",
    plugins: [externalOnce, lazyLibraries, librariesApart("."), asciiOnly],
    outdir: dist,
    mainFields: ["module", "main"],
  },
  // The ACP SDK, apart from extension.js: extension/acp/sdk.ts requires it when the first ACP agent starts.
  {
    ...common,
    entryPoints: { "acp-sdk": "node_modules/@agentclientprotocol/sdk/dist/v1/stable/acp.js" },
    platform: "node",
    format: "cjs",
    target: "node20",
    outdir: dist,
    mainFields: ["module", "main"],
  },
  // A Pi extension the editor loads into pi and other Pi-compatible agents (`-e`): it records
  // files in the checkpoint store before their write/edit tools run.
  {
    ...common,
    // and pi-gateway: it re-points the providers whose keys the editor keeps at its model gateway;
    // and pi-editor-bridge: the editor's host tools for agents without set_host_tools (#35).
    entryPoints: { "pi-checkpoints": "extension/checkpoints/pi-checkpoints.ts", "pi-gateway": "extension/gateway/pi-gateway.ts", "pi-editor-bridge": "extension/editor-bridge/pi-editor-bridge.ts" },
    platform: "node",
    // ESM: Pi's loader (jiti) and Bun take its default export as the extension's factory.
    format: "esm",
    outExtension: { ".js": ".mjs" },
    target: "node20",
    outdir: dist,
    mainFields: ["module", "main"],
  },
  // The host: a small entry (compile cache), its main bundle, and what it gives Pi extensions to
  // import (TypeBox, pi stand-ins), loaded with the first extension.
  {
    ...hostBundle,
    entryPoints: {
      "agent-host": "agent-host/start.ts",
      "agent-host-main": "agent-host/main.ts",
      // `agent-host.js --pool`: sessions in worker threads of one process, each running agent-host-main.js (agent-host/pool/).
      "agent-host-pool": "agent-host/pool/pool-main.ts",
      "extension-runtime": "agent-host/session/extensions/extension-runtime.ts",
    },
    outdir: dist,
  },
  // Each LLM provider is its own bundle, loaded by the host on first use (agent-host/ai/providers/load.ts).
  // The SDKs' fetch, Headers, Response and FormData become agent-host/ai/http's, so that model
  // requests go through node:http and never load undici.
  { ...hostBundle, entryPoints: providerEntries(), outdir: join(dist, "providers"), plugins: [librariesApart("..")], inject: ["agent-host/ai/http/globals.ts"] },
  { ...hostBundle, plugins: [], entryPoints: LIBRARIES_APART, outdir: dist },
  // MCP: the host's MCP runtime (agent-host/mcp/load.ts requires it when mcp.json names a server)
  // and the MCP SDK (agent-host/mcp/sdk.ts requires it when the first server connects).
  { ...hostBundle, entryPoints: { "mcp-manager": "agent-host/mcp/manager.ts", "mcp-sdk": "agent-host/mcp/sdk-entry.ts" }, outdir: dist },
  // Codemode: the worker thread that runs a script in QuickJS (quickjs-wasi), started per script
  // by agent-host/mcp/codemode/sandbox.ts; its quickjs.wasm is copied beside it (copyQuickJsWasm).
  { ...hostBundle, entryPoints: { "codemode-worker": "agent-host/mcp/codemode/worker.ts" }, outdir: dist },
  // find's and grep's Node searches (no fd, no ripgrep), in a worker thread per search started by
  // agent-host/tools/off-thread-search.ts, which stops it on Stop or at its deadline.
  { ...hostBundle, entryPoints: { "search-worker": "agent-host/tools/search-worker.ts" }, outdir: dist },
  // ACP: `--mode acp` (agent-host/acp/load.ts requires it then), the ACP face with the ACP SDK; --mode rpc never reads it.
  { ...hostBundle, entryPoints: { "acp-mode": "agent-host/acp/serve.ts" }, outdir: dist },
  {
    ...common,
    entryPoints: { webview: "webview/main.ts" },
    platform: "browser",
    format: "iife",
    target: "chrome120",
    outdir: dist,
    loader: { ".ttf": "file" },
  },
];

function providerEntries() {
  const dir = join(root, "agent-host", "ai", "providers");
  const names = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "load.ts");
  return Object.fromEntries(names.map((f) => [f.slice(0, -3), join(dir, f)]));
}

/** Writes dist/protocol.schema.json from the TypeBox declarations in shared/protocol. */
async function writeSchema() {
  const out = join(dist, ".build", "schema-document.cjs");
  await esbuild.build({
    entryPoints: ["shared/protocol/schema-document.ts"],
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile: out,
    logLevel: "warning",
  });
  const require = createRequire(import.meta.url);
  delete require.cache[out];
  const { protocolSchemaDocument } = require(out);
  writeFileSync(join(dist, "protocol.schema.json"), `${JSON.stringify(protocolSchemaDocument(version), null, 2)}\n`);
}

/**
 * dist/validators.js (inbound frames, models.json: needed at start-up), dist/tool-validators.js
 * (built-in tools' arguments: needed at the first tool call) and dist/client-validators.js (the
 * extension's checks of agents' frames: needed at the first frame) as AJV standalone code
 * (agent-host/rpc/precompiled-schemas.ts), so that the host never loads or runs AJV for them.
 */
async function writeValidators() {
  const schemasOut = join(dist, ".build", "precompiled-schemas.cjs");
  await esbuild.build({ entryPoints: ["agent-host/rpc/precompiled-schemas.ts"], bundle: true, platform: "node", format: "cjs", outfile: schemasOut, logLevel: "warning" });
  const require = createRequire(import.meta.url);
  delete require.cache[schemasOut];
  const { precompiledSchemas, precompiledToolSchemas, precompiledClientSchemas, precompiledPoolSchemas, validatorOptions, toolValidatorOptions } = require(schemasOut);
  const Ajv = require("ajv").default;
  const standaloneCode = require("ajv/dist/standalone").default;
  const sets = [
    { options: validatorOptions, schemas: precompiledSchemas(), out: "validators.js" },
    { options: toolValidatorOptions, schemas: precompiledToolSchemas(), out: "tool-validators.js" },
    // The pool's checks of its control frames (agent-host/pool/pool-main.ts): the pool loads no other schema.
    { options: validatorOptions, schemas: precompiledPoolSchemas(), out: "pool-validators.js" },
    // The extension's, for what agents write: loaded with the first frame (extension/precompiled-validators.ts).
    { options: validatorOptions, schemas: precompiledClientSchemas(), out: "client-validators.js" },
  ];
  return Promise.all(
    sets.map(async ({ options, schemas, out }) => {
      const ajv = new Ajv({ ...options, code: { source: true } });
      const names = {};
      for (const [key, schema] of Object.entries(schemas)) {
        const name = `v${Object.keys(names).length}`;
        ajv.addSchema(schema, name);
        names[name] = key;
      }
      const byKey = Object.entries(names).map(([name, key]) => `${JSON.stringify(key)}: exports.${name}`);
      const source = join(dist, ".build", `${out}-source.cjs`);
      writeFileSync(source, `${standaloneCode(ajv, Object.fromEntries(Object.keys(names).map((n) => [n, n])))}\nexports.validators = {${byKey.join(", ")}};\n`);
      return esbuild.build({ entryPoints: [source], bundle: true, platform: "node", format: "cjs", target: "node20", minify: true, outfile: join(dist, out), logLevel: "warning", nodePaths: [join(root, "node_modules")], metafile: true });
    }),
  );
}

/**
 * The host compiles Pi extensions with esbuild at load time. The VSIX carries no node_modules and
 * is the same for every platform, so it gets esbuild-wasm (Node API + esbuild.wasm), in its own
 * layout, beside the host (agent-host/session/extensions/compiler.ts).
 */
function copyEsbuildWasm() {
  const from = join(root, "node_modules", "esbuild-wasm");
  const to = join(dist, "esbuild-wasm");
  for (const file of ["package.json", "LICENSE.md", "lib/main.js", "bin/esbuild", "esbuild.wasm", "wasm_exec.js", "wasm_exec_node.js"]) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(join(from, file), join(to, file));
  }
}

/** The bash parser's two .wasm files (agent-host/session/tool-gates/shell-words.ts), beside the host. */
function copyTreeSitterWasm() {
  const to = join(dist, "tree-sitter");
  mkdirSync(to, { recursive: true });
  copyFileSync(join(root, "node_modules", "web-tree-sitter", "web-tree-sitter.wasm"), join(to, "web-tree-sitter.wasm"));
  copyFileSync(join(root, "node_modules", "tree-sitter-bash", "tree-sitter-bash.wasm"), join(to, "tree-sitter-bash.wasm"));
}

/** QuickJS for codemode scripts (agent-host/mcp/codemode/worker.ts), beside the worker. */
function copyQuickJsWasm() {
  copyFileSync(join(root, "node_modules", "quickjs-wasi", "quickjs.wasm"), join(dist, "quickjs.wasm"));
}

mkdirSync(dist, { recursive: true });
copyEsbuildWasm();
copyTreeSitterWasm();
copyQuickJsWasm();
if (watch) {
  const schemaPlugin = { name: "schema", setup: (build) => build.onEnd(() => Promise.all([writeSchema(), writeValidators()]).catch((e) => console.error(e))) };
  const contexts = await Promise.all(
    programs.map((options, i) => esbuild.context(i === 0 ? { ...options, plugins: [schemaPlugin] } : options)),
  );
  await Promise.all(contexts.map((ctx) => ctx.watch()));
  console.log("watching for changes…");
} else {
  const started = Date.now();
  const [builds, validators] = await Promise.all([Promise.all(programs.map((options) => esbuild.build(options))), writeValidators(), writeSchema()]);
  const metafiles = [...builds, ...validators].map((result) => result.metafile);
  const packages = writeThirdPartyNotices(metafiles, [join(root, "node_modules", "esbuild-wasm"), join(root, "node_modules", "tree-sitter-bash"), join(root, "node_modules", "quickjs-wasi")], join(dist, "THIRD-PARTY-NOTICES.txt"));
  console.log(`built dist/ (${production ? "production" : "development"}, ${packages} third-party packages) in ${Date.now() - started} ms`);
}

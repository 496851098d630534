/**
 * An esbuild plugin: `import * as vscode from "vscode"` in each of the extension's ~75 modules
 * would each copy the whole API object (esbuild's CommonJS interop, a getter per key) at load; one
 * ES module re-exporting it makes a single copy that every importer shares. The same for Node's
 * modules: `import * as fs from "node:fs"` in ~80 places copied fs's ~100 keys each time (~6 ms of
 * the extension's ~14 ms of module top levels, bench/activation.mjs --prof).
 *
 * The re-export carries `default` too: a library's `import process from "node:process"` (the MCP
 * SDK's stdio transports) was `undefined` without it, and the build did not say so
 * (test/rules/external-once.test.ts).
 */
export const externalOnce = {
  name: "external-once",
  setup(build) {
    // Only import statements: a require() inside a function (a module loaded on first use) stays a
    // plain require, which Node caches; through the namespace each call would copy its keys again.
    build.onResolve({ filter: /^(vscode|node:[a-z_/]+)$/ }, ({ path, namespace, kind }) =>
      namespace === "external-once" || kind !== "import-statement" ? { path, external: true } : { path, namespace: "external-once" },
    );
    build.onLoad({ filter: /.*/, namespace: "external-once" }, ({ path }) => {
      const module = JSON.stringify(path);
      return { contents: `export * from ${module}; export { default } from ${module};`, loader: "js" };
    });
  },
};

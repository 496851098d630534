// Lint: the layer order as rules (each folder imports only what the README's Layout table allows)
// and a few checks TypeScript does not make. `npm run lint`; part of `npm test`.
import tseslint from "typescript-eslint";

/** `no-restricted-imports` patterns: each a regex on the import string, with why it is refused. */
const refuse = (...rules) => ({
  "no-restricted-imports": ["error", { patterns: rules.map(([regex, message]) => ({ regex, message })) }],
});
const up = "^(\\.\\./)+";
const node = ["^node:|^(fs|path|os|child_process|http|https|net|stream|crypto|url|util|events)$", "platform-free code: no Node modules"];
const vscode = ["^vscode$", "only extension/ (and its tests) may import vscode"];
const agentHost = [`${up}agent-host/`, "agent-host/ is reached only over the wire (shared/rpc)"];
const extension = [`${up}extension/`, "extension/ is the top of its own stack: nothing imports it"];
const webview = [`${up}webview/`, "webview/ talks to the extension only through its typed channel"];
/** agent-host's layers, in order: a layer imports only earlier ones. */
const hostLayers = ["ai", "agent", "tools", "mcp", "session", "acp", "rpc", "pool"];
const laterThan = (layer) => hostLayers.slice(hostLayers.indexOf(layer) + 1);

export default tseslint.config(
  { ignores: ["dist/**", "dist-test/**", "dist-vsix/**", "node_modules/**", "test/peers/*/node_modules/**", ".test-artifacts/**", "bench/**", "scripts/**", "test/vscode/workspace/**"] },
  {
    files: ["**/*.ts"],
    // Type information (each file's tsconfig, found by the project service) for the promise rules.
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      // A promise nobody awaits or catches drops its error: `void` says the drop is meant.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // An empty block (an empty catch included) needs a comment that says why nothing is done.
      "no-empty": ["error", { allowEmptyCatch: false }],
      "no-debugger": "error",
      eqeqeq: ["error", "smart"],
      // Node 20 can collect a timeout signal inside AbortSignal.any before it fires: the limit is lost.
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name='AbortSignal'][callee.property.name='any'] CallExpression[callee.object.name='AbortSignal'][callee.property.name='timeout']",
          message: "a timeout inside AbortSignal.any can be garbage-collected before it fires (Node 20): use shared/node/bounded-fetch.ts, or a timer that holds its controller",
        },
      ],
    },
  },
  // Tests run in Node: the platform-free folders' tests may use Node modules.
  { files: ["shared/**/*.ts"], ignores: ["shared/node/**", "**/*.test.ts"], rules: refuse(node, vscode, agentHost, extension, webview) },
  { files: ["shared/**/*.test.ts"], ignores: ["shared/node/**"], rules: refuse(vscode, agentHost, extension, webview) },
  { files: ["shared/node/**/*.ts"], rules: refuse(vscode, agentHost, extension, webview) },
  { files: ["webview/**/*.ts"], ignores: ["**/*.test.ts"], rules: refuse(node, vscode, agentHost, extension) },
  { files: ["webview/**/*.test.ts"], rules: refuse(vscode, agentHost, extension) },
  { files: ["extension/**/*.ts"], rules: refuse(agentHost, webview) },
  ...hostLayers.map((layer) => ({
    files: [`agent-host/${layer}/**/*.ts`],
    rules: refuse(vscode, extension, webview, [`${up}(${laterThan(layer).join("|") || "-"})/`, `agent-host/${layer}/ may import only earlier layers (${hostLayers.join(" → ")})`]),
  })),
);

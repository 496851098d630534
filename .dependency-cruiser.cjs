// The layer rules on resolved paths (`npm run lint:layers`, part of `npm run lint`): every static
// import, re-export, type import, `import()` and `require()` is resolved to the file it reaches, and
// that file's folder must be one the README's Layout table allows. eslint.config.mjs's
// `no-restricted-imports` reads the import string only; this reads where it goes.
/** agent-host's layers, in order: a layer imports only earlier ones. */
const hostLayers = ["ai", "agent", "tools", "mcp", "session", "acp", "rpc", "pool"];
const tests = "\\.test\\.ts$";

/** A rule: files under `from` (less tests where `tests` says so) may not reach `to`. */
function refuse(name, comment, from, to) {
  return { name, comment, severity: "error", from, to };
}
const nodeBuiltins = { dependencyTypes: ["core"] };
const vscode = { path: "^vscode$" };

module.exports = {
  forbidden: [
    refuse("shared-is-platform-free", "shared/ (outside shared/node and tests) uses no Node modules", { path: "^shared/", pathNot: [`^shared/node/`, tests] }, nodeBuiltins),
    refuse("webview-is-platform-free", "webview/ (outside tests) runs in the browser: no Node modules", { path: "^webview/", pathNot: tests }, nodeBuiltins),
    refuse("only-extension-imports-vscode", "only extension/ (and its tests) may import vscode", { path: "^(shared|agent-host|webview)/" }, vscode),
    refuse("shared-imports-no-other-folder", "shared/ imports none of the other folders", { path: "^shared/" }, { path: "^(agent-host|extension|webview)/" }),
    refuse("webview-only-through-its-channel", "webview/ talks to the extension only through its typed channel (shared/)", { path: "^webview/" }, { path: "^(agent-host|extension)/" }),
    refuse("extension-reaches-agents-over-the-wire", "extension/ reaches agents only over the wire and the webview only through its channel", { path: "^extension/" }, { path: "^(agent-host|webview)/" }),
    refuse("agent-host-is-not-the-editor", "agent-host/ imports neither the extension nor the webview", { path: "^agent-host/" }, { path: "^(extension|webview)/" }),
    ...hostLayers.slice(0, -1).map((layer, index) =>
      refuse(
        `agent-host-${layer}-imports-earlier-layers`,
        `agent-host/${layer}/ may import only earlier layers (${hostLayers.join(" → ")})`,
        { path: `^agent-host/${layer}/` },
        { path: `^agent-host/(${hostLayers.slice(index + 1).join("|")})/` },
      ),
    ),
    refuse("no-unresolved-relative", "a relative import that resolves nowhere hides where it goes", { path: "^(shared|agent-host|extension|webview)/" }, { couldNotResolve: true, path: "^\\." }),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|dist-test)/" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports and re-exports count: `export type { X } from "../agent-host/…"` is a dependency too.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs", ".cjs", ".json"] },
  },
};

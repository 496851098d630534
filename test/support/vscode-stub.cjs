// A stand-in for the `vscode` module, enough for the extension's bundle to load and activate()
// to run in plain Node (bench/activation.mjs): every member not given here is a callable,
// constructible object whose members are the same, so code that registers things runs through.
// It counts what activate() registers. Not a test double: nothing here behaves like VS Code.
"use strict";
const path = require("node:path");

const counts = {};
const count = (name) => (counts[name] = (counts[name] ?? 0) + 1);

function anything(name) {
  const target = function () {};
  const set = new Map();
  return new Proxy(target, {
    set: (_t, key, value) => (set.set(key, value), true),
    get(_t, key) {
      if (set.has(key)) return set.get(key);
      if (key === "then") return undefined;
      if (key === Symbol.toPrimitive) return () => "";
      if (key === Symbol.iterator) return function* () {};
      if (key === "dispose") return () => {};
      if (typeof key === "symbol") return undefined;
      return anything(`${name}.${key}`);
    },
    apply: () => anything(`${name}()`),
    construct: () => anything(`new ${name}`),
  });
}

const disposable = () => ({ dispose() {} });
class EventEmitter {
  listeners = new Set();
  event = (listener) => (this.listeners.add(listener), { dispose: () => this.listeners.delete(listener) });
  fire(value) { for (const l of this.listeners) l(value); }
  dispose() { this.listeners.clear(); }
}
class Disposable {
  constructor(fn) { this.fn = fn; }
  static from(...items) { return new Disposable(() => items.forEach((d) => d.dispose())); }
  dispose() { this.fn?.(); }
}
class Uri {
  constructor(fsPath, scheme = "file") { this.fsPath = fsPath; this.path = fsPath; this.scheme = scheme; }
  static file(p) { return new Uri(p); }
  static parse(s) { return new Uri(s.replace(/^file:\/\//, ""), s.split(":")[0]); }
  static joinPath(base, ...parts) { return new Uri(path.join(base.fsPath, ...parts), base.scheme); }
  static from(c) { return new Uri(c.path ?? "", c.scheme); }
  with(c) { return new Uri(c.path ?? this.fsPath, c.scheme ?? this.scheme); }
  toString() { return `${this.scheme}://${this.fsPath}`; }
}
const event = () => disposable();
const registered = (kind) => () => (count(kind), disposable());
const item = (kind) => () => (count(kind), Object.assign(anything(kind), { show() {}, hide() {}, dispose() {} }));

const names = "CancellationError CancellationTokenSource CodeAction CodeActionKind CodeLens ConfigurationTarget Diagnostic DiagnosticSeverity DocumentSymbol EndOfLine FileType Hover LanguageModelChatMessage LanguageModelChatToolMode LanguageModelError LanguageModelTextPart LanguageModelToolCallPart LanguageModelToolResult LanguageModelToolResultPart Location LogLevel MarkdownString Position ProgressLocation QuickPickItemKind Range Selection StatusBarAlignment SymbolInformation TabInputCustom TabInputNotebook TabInputNotebookDiff TabInputTerminal TabInputText TabInputTextDiff TabInputWebview TextEditorRevealType ThemeColor ThemeIcon TreeItem TreeItemCollapsibleState ViewColumn WorkspaceEdit extensions l10n tasks debug scm tests notebooks authentication version";
// esbuild's `export * from "vscode"` copies the module's own keys: every name the code uses must be one.
const stub = new Proxy(
  {
    ...Object.fromEntries(names.split(" ").map((n) => [n, anything(n)])),
    EventEmitter, Disposable, Uri,
    window: new Proxy(
      {
        createOutputChannel: (name) => ({ name, info: (m) => stub.__log.push(m), warn() {}, error() {}, debug() {}, trace() {}, appendLine() {}, append() {}, show() {}, dispose() {}, logLevel: 2, onDidChangeLogLevel: event }),
        createStatusBarItem: item("createStatusBarItem"),
        createTreeView: item("createTreeView"),
        registerWebviewViewProvider: registered("registerWebviewViewProvider"),
        registerWebviewPanelSerializer: registered("registerWebviewPanelSerializer"),
        registerFileDecorationProvider: registered("registerFileDecorationProvider"),
        registerTreeDataProvider: registered("registerTreeDataProvider"),
        tabGroups: { all: [], activeTabGroup: { tabs: [] }, onDidChangeTabs: event, onDidChangeTabGroups: event },
        visibleTextEditors: [], activeTextEditor: undefined, terminals: [], state: { focused: true },
      },
      { get: (o, k) => (k in o ? o[k] : String(k).startsWith("on") ? event : anything(`window.${String(k)}`)) },
    ),
    workspace: new Proxy(
      {
        workspaceFolders: undefined, textDocuments: [], isTrusted: true,
        getConfiguration: () => ({ get: (_k, d) => d, has: () => false, inspect: () => undefined, update: async () => {} }),
        registerTextDocumentContentProvider: registered("registerTextDocumentContentProvider"),
        createFileSystemWatcher: item("createFileSystemWatcher"),
        findFiles: async () => (count("findFiles"), []),
      },
      { get: (o, k) => (k in o ? o[k] : String(k).startsWith("on") ? event : anything(`workspace.${String(k)}`)) },
    ),
    commands: { registerCommand: registered("registerCommand"), registerTextEditorCommand: registered("registerTextEditorCommand"), executeCommand: async () => undefined, getCommands: async () => [] },
    chat: { createChatParticipant: item("createChatParticipant") },
    languages: new Proxy({}, { get: (_o, k) => (String(k).startsWith("on") ? event : String(k).startsWith("register") ? registered(String(k)) : anything(`languages.${String(k)}`)) }),
    lm: new Proxy({ tools: [] }, { get: (o, k) => (k in o ? o[k] : String(k).startsWith("on") ? event : anything(`lm.${String(k)}`)) }),
    env: anything("env"),
    __log: [],
    __counts: counts,
  },
  { get: (o, k) => (k in o ? o[k] : typeof k === "symbol" || k === "then" || k === "__esModule" ? undefined : anything(String(k))) },
);
module.exports = stub;

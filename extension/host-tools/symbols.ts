/** editor_symbols: the outline of a document, or a search over the symbols of the workspace. */
import { Type } from "@sinclair/typebox";
import * as vscode from "vscode";
import type { HostToolContext } from "../../shared/rpc/host-tool-registry";
import { asDocumentSymbol, asSymbolInformation } from "./lsp";
import { reallyReadable } from "./readable-for-agent";
import { openForProviders, runProvider, type OpenedDocument } from "./providers";
import { defineTool, jsonResult, raceCancellation, type EditorTool } from "./tool";
import { lazySchema } from "../../shared/protocol/lazy-schema";

const SymbolsParams = lazySchema(() => Type.Object(
  {
    path: Type.Optional(Type.String({ description: "A file: returns its symbols as a tree (classes, functions, methods, ...)." })),
    query: Type.Optional(Type.String({ minLength: 1, description: "A name (or part of one) to look for in the symbols of the whole workspace." })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "Most workspace symbols to return (default 100)." })),
  },
  { additionalProperties: false },
));

/** VS Code answers with objects that are SymbolInformation and, from a tree provider, DocumentSymbol too. */
const isDocumentSymbol = (symbol: vscode.SymbolInformation | vscode.DocumentSymbol): symbol is vscode.DocumentSymbol =>
  "children" in symbol && "selectionRange" in symbol;

async function documentSymbols(opened: OpenedDocument, context: HostToolContext) {
  const found = await runProvider<(vscode.SymbolInformation | vscode.DocumentSymbol)[]>("vscode.executeDocumentSymbolProvider", [opened.document.uri], opened, context, "document symbols");
  const symbols = found ?? [];
  const tree = symbols.every(isDocumentSymbol);
  return {
    path: opened.path,
    languageId: opened.document.languageId,
    version: opened.document.version,
    format: tree ? "DocumentSymbol[]" : "SymbolInformation[]",
    symbols: tree ? symbols.map(asDocumentSymbol) : symbols.map((symbol) => asSymbolInformation(symbol as vscode.SymbolInformation)),
  };
}

export function createSymbolsTool(): EditorTool {
  return defineTool({
    name: "editor_symbols",
    label: "Symbols",
    description:
      "Symbols from VS Code's language support. With `path`: the document's outline as LSP DocumentSymbols (name, kind, range, selectionRange, children). " +
      "With `query`: matching symbols anywhere in the workspace as LSP SymbolInformation (name, kind, containerName, location with path). Ranges are zero-based. Give exactly one of path or query.",
    parameters: SymbolsParams,
    async run({ path, query, limit }, context) {
      if ((path === undefined) === (query === undefined)) throw new Error("Give exactly one of `path` (a document's symbols) or `query` (workspace symbols).");
      if (path !== undefined) return jsonResult(await documentSymbols(await openForProviders(path, context), context));
      context.update({ content: [{ type: "text", text: `Searching the workspace symbols for "${query}"…` }] });
      const found = await raceCancellation(vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>("vscode.executeWorkspaceSymbolProvider", query), context.token);
      const max = limit ?? 100;
      // Not those of a file a link at its name leads out of the workspace from (the server read it through the link).
      const symbols = (found ?? []).filter((symbol) => reallyReadable(symbol.location.uri)).map(asSymbolInformation);
      return jsonResult({ query, total: symbols.length, omitted: Math.max(0, symbols.length - max), symbols: symbols.slice(0, max) });
    },
  });
}

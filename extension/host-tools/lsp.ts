/**
 * VS Code objects as LSP wire types: vscode-languageclient's code converter for positions,
 * ranges, locations, diagnostics and symbol kinds/tags, and small converters here for what it
 * only converts the other way (document symbols, symbol information, location links, hovers).
 * Each location also names its file by workspace path. (LSP TextEdits coming from the model are
 * turned into offsets by edit-matching.ts, which checks their ranges against the text.)
 */
import * as vscode from "vscode";
import type * as lsp from "vscode-languageclient";
import { symbolKindName } from "./lsp-format";
import { displayOf } from "./editor-workspace";

type CodeConverter = ReturnType<typeof import("vscode-languageclient/lib/common/codeConverter").createConverter>;
let converter: CodeConverter | undefined;

/**
 * vscode-languageclient's converter, loaded with the first editor tool that needs it: its LSP
 * protocol stack (~200 KB) is not evaluated at activation.
 */
export function code2lsp(): CodeConverter {
  type Module = typeof import("vscode-languageclient/lib/common/codeConverter");
  converter ??= (require("vscode-languageclient/lib/common/codeConverter") as Module).createConverter();
  return converter;
}

export type LspLocation = lsp.Location & { path: string; targetSelectionRange?: lsp.Range; originSelectionRange?: lsp.Range };

/** A Location or a LocationLink as an LSP Location (links keep their selection ranges). */
export function asLocation(value: vscode.Location | vscode.LocationLink): LspLocation {
  if (value instanceof vscode.Location) return { ...code2lsp().asLocation(value), path: displayOf(value.uri) ?? value.uri.toString() };
  const location: LspLocation = {
    uri: code2lsp().asUri(value.targetUri),
    range: code2lsp().asRange(value.targetRange),
    path: displayOf(value.targetUri) ?? value.targetUri.toString(),
  };
  if (value.targetSelectionRange) location.targetSelectionRange = code2lsp().asRange(value.targetSelectionRange);
  if (value.originSelectionRange) location.originSelectionRange = code2lsp().asRange(value.originSelectionRange);
  return location;
}

export type LspDocumentSymbol = Omit<lsp.DocumentSymbol, "children"> & { kindName: string; children?: LspDocumentSymbol[] };

export function asDocumentSymbol(symbol: vscode.DocumentSymbol): LspDocumentSymbol {
  const kind = code2lsp().asSymbolKind(symbol.kind);
  const result: LspDocumentSymbol = {
    name: symbol.name,
    kind,
    kindName: symbolKindName(kind),
    range: code2lsp().asRange(symbol.range),
    selectionRange: code2lsp().asRange(symbol.selectionRange),
  };
  if (symbol.detail) result.detail = symbol.detail;
  const tags = code2lsp().asSymbolTags(symbol.tags ?? []);
  if (tags.length > 0) result.tags = tags;
  if (symbol.children.length > 0) result.children = symbol.children.map(asDocumentSymbol);
  return result;
}

export type LspSymbolInformation = Omit<lsp.SymbolInformation, "location"> & { kindName: string; location: LspLocation };

export function asSymbolInformation(symbol: vscode.SymbolInformation): LspSymbolInformation {
  const kind = code2lsp().asSymbolKind(symbol.kind);
  const result: LspSymbolInformation = { name: symbol.name, kind, kindName: symbolKindName(kind), location: asLocation(symbol.location) };
  if (symbol.containerName) result.containerName = symbol.containerName;
  const tags = code2lsp().asSymbolTags(symbol.tags ?? []);
  if (tags.length > 0) result.tags = tags;
  return result;
}

function markdownOf(content: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof content === "string") return content;
  if (content instanceof vscode.MarkdownString) return content.value;
  return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
}

export type LspHover = lsp.Hover & { contents: lsp.MarkupContent };

/** A Hover as an LSP Hover with markdown contents. */
export function asHover(hover: vscode.Hover): LspHover {
  const value = hover.contents.map(markdownOf).filter((text) => text.trim() !== "").join("\n\n---\n\n");
  const result: LspHover = { contents: { kind: "markdown", value } };
  if (hover.range) result.range = code2lsp().asRange(hover.range);
  return result;
}

/** editor_definition, editor_references, editor_hover: VS Code's language features at a position. */
import { Type } from "@sinclair/typebox";
import * as vscode from "vscode";
import type { HostToolContext } from "../../shared/rpc/host-tool-registry";
import { code2lsp, asHover, asLocation, type LspLocation } from "./lsp";
import { LinePreviews, openAt, runProvider } from "./providers";
import { defineTool, jsonResult, throwIfCancelled, type EditorTool } from "./tool";
import { lazySchema } from "../../shared/protocol/lazy-schema";

const At = () => ({
  path: Type.String({ description: "File, relative to the workspace folder or absolute (inside the workspace)." }),
  line: Type.Integer({ minimum: 0, description: "Zero-based line (the first line is 0; editor_read's line N is N-1 here)." }),
  character: Type.Integer({ minimum: 0, description: "Zero-based column on that line, e.g. of the first letter of the identifier." }),
});
const PositionParams = lazySchema(() => Type.Object(At(), { additionalProperties: false }));
const ReferencesParams = lazySchema(() => Type.Object(
  { ...At(), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "Most references to return (default 100)." })) },
  { additionalProperties: false },
));

/** Locations with the text of the line each starts on. */
async function withPreviews(locations: LspLocation[], context: HostToolContext): Promise<(LspLocation & { text?: string })[]> {
  const previews = new LinePreviews();
  const out: (LspLocation & { text?: string })[] = [];
  for (const location of locations) {
    throwIfCancelled(context.token);
    const line = (location.targetSelectionRange ?? location.range).start.line;
    const text = await previews.lineAt(vscode.Uri.parse(location.uri), line);
    out.push(text === undefined ? location : { ...location, text });
  }
  return out;
}

function origin(at: { path: string; position: vscode.Position }) {
  return { path: at.path, position: code2lsp().asPosition(at.position) };
}

/** A position provider's answer (`what`: what the model waits for): the document opened at the position, then the provider asked there. */
async function askAt<T>(command: string, args: { path: string; line: number; character: number }, context: HostToolContext, what: string) {
  const at = await openAt(args, context);
  const found = await runProvider<T>(command, [at.document.uri, at.position], at, context, what);
  return { at, found };
}

export function createDefinitionTool(): EditorTool {
  return defineTool({
    name: "editor_definition",
    label: "Go to definition",
    description:
      "Where the symbol at a position is defined, from VS Code's language support (like F12). Returns LSP Locations (uri, path, zero-based range) with the text of the line each starts on.",
    parameters: PositionParams,
    async run(args, context) {
      const { at, found } = await askAt<(vscode.Location | vscode.LocationLink)[]>("vscode.executeDefinitionProvider", args, context, "definitions");
      const definitions = await withPreviews((found ?? []).map(asLocation), context);
      return jsonResult({ ...origin(at), definitions });
    },
  });
}

export function createReferencesTool(): EditorTool {
  return defineTool({
    name: "editor_references",
    label: "Find references",
    description:
      "Every reference to the symbol at a position, declaration included, from VS Code's language support (like Shift+F12). Returns LSP Locations (uri, path, zero-based range) with the text of each line.",
    parameters: ReferencesParams,
    async run(args, context) {
      const { at, found: answer } = await askAt<vscode.Location[]>("vscode.executeReferenceProvider", args, context, "references");
      const found = answer ?? [];
      const max = args.limit ?? 100;
      const files = new Set(found.map((location) => location.uri.toString())).size;
      context.update({ content: [{ type: "text", text: `Found ${found.length} references in ${files} files.` }] });
      const references = await withPreviews(found.slice(0, max).map(asLocation), context);
      return jsonResult({ ...origin(at), total: found.length, omitted: Math.max(0, found.length - max), references });
    },
  });
}

export function createHoverTool(): EditorTool {
  return defineTool({
    name: "editor_hover",
    label: "Hover",
    description:
      "What VS Code shows when hovering a position: the type, signature and documentation of the symbol there, as LSP Hovers with markdown contents.",
    parameters: PositionParams,
    async run(args, context) {
      const { at, found } = await askAt<vscode.Hover[]>("vscode.executeHoverProvider", args, context, "hover");
      return jsonResult({ ...origin(at), hovers: (found ?? []).map(asHover).filter((hover) => hover.contents.value !== "") });
    },
  });
}

/** editor_active and editor_open_editors: what the user is looking at. */
import { Type } from "@sinclair/typebox";
import * as vscode from "vscode";
import { displayOf, hiddenFromAgents, stampOf } from "./editor-workspace";
import { code2lsp } from "./lsp";
import { documentTextForAgent } from "./readable-for-agent";
import { defineTool, jsonResult, type EditorTool } from "./tool";
import { lazySchema } from "../../shared/protocol/lazy-schema";

const NoParams = lazySchema(() => Type.Object({}, { additionalProperties: false }));

/** Most characters of selected text returned per selection. */
const maxSelectionText = 4000;

const nameOf = (uri: vscode.Uri): string => displayOf(uri) ?? uri.toString();

/**
 * `mayShow`: whether the document's text may go to the agent (readable-for-agent.ts: not one VS Code
 * loaded through a link a command put at its name).
 */
function selectionOf(document: vscode.TextDocument, selection: vscode.Selection, mayShow: boolean): Record<string, unknown> {
  const result: Record<string, unknown> = {
    anchor: code2lsp().asPosition(selection.anchor),
    active: code2lsp().asPosition(selection.active),
    range: code2lsp().asRange(selection),
    isEmpty: selection.isEmpty,
  };
  if (!selection.isEmpty && hiddenFromAgents(document.uri)) result.text = "(not shown: the file is in a folder the agents' sandbox hides)";
  else if (!selection.isEmpty && !mayShow) result.text = "(not shown: the editor shows what a link at the file's name leads to, outside the workspace or hidden, not the workspace file)";
  else if (!selection.isEmpty) {
    const text = document.getText(selection);
    result.text = text.length > maxSelectionText ? `${text.slice(0, maxSelectionText)}… [${text.length - maxSelectionText} more characters]` : text;
  }
  return result;
}

export function createActiveEditorTool(): EditorTool {
  return defineTool({
    name: "editor_active",
    label: "Active editor",
    description:
      "The editor the user is working in: its file path, language, document version, whether it has unsaved changes, the selections (with the selected text) and the visible line ranges. " +
      "Ranges are LSP ranges with zero-based lines. Use it to find what \"this\", \"here\" or \"the selection\" refers to.",
    parameters: NoParams,
    async run() {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return jsonResult({ activeEditor: null, message: "No text editor is active." });
      const { document } = editor;
      const { path, uri, languageId, version, isDirty, lineCount } = stampOf(document, nameOf(document.uri));
      const selected = editor.selections.some((selection) => !selection.isEmpty);
      const mayShow = !selected || (await documentTextForAgent(document, path)) !== undefined;
      return jsonResult({
        path,
        uri,
        languageId,
        version,
        isDirty,
        lineCount,
        selections: editor.selections.map((selection) => selectionOf(document, selection, mayShow)),
        visibleRanges: editor.visibleRanges.map((range) => code2lsp().asRange(range)),
        viewColumn: editor.viewColumn ?? null,
      });
    },
  });
}

/** What a tab shows, by the kind of its input. */
function describeTab(tab: vscode.Tab): Record<string, unknown> {
  const input = tab.input;
  if (input instanceof vscode.TabInputText) return { kind: "text", path: nameOf(input.uri) };
  if (input instanceof vscode.TabInputTextDiff) return { kind: "diff", original: nameOf(input.original), modified: nameOf(input.modified) };
  if (input instanceof vscode.TabInputNotebook) return { kind: "notebook", path: nameOf(input.uri), notebookType: input.notebookType };
  if (input instanceof vscode.TabInputNotebookDiff) return { kind: "notebookDiff", original: nameOf(input.original), modified: nameOf(input.modified) };
  if (input instanceof vscode.TabInputCustom) return { kind: "custom", path: nameOf(input.uri), viewType: input.viewType };
  if (input instanceof vscode.TabInputWebview) return { kind: "webview", viewType: input.viewType };
  if (input instanceof vscode.TabInputTerminal) return { kind: "terminal" };
  return { kind: "other" };
}

export function createOpenEditorsTool(): EditorTool {
  return defineTool({
    name: "editor_open_editors",
    label: "Open editors",
    description:
      "The tabs open in VS Code, by editor group: each tab's label, kind (text, diff, notebook, ...), file path, and whether it is active, has unsaved changes, is pinned or is a preview.",
    parameters: NoParams,
    async run() {
      const groups = vscode.window.tabGroups.all.map((group) => ({
        viewColumn: group.viewColumn,
        isActive: group.isActive,
        tabs: group.tabs.map((tab) => ({
          label: tab.label,
          ...describeTab(tab),
          isActive: tab.isActive,
          isDirty: tab.isDirty,
          isPinned: tab.isPinned,
          isPreview: tab.isPreview,
        })),
      }));
      return jsonResult({ groups, tabCount: groups.reduce((n, group) => n + group.tabs.length, 0) });
    },
  });
}

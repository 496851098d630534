/** editor_diagnostics: the problems VS Code knows for a file or the whole workspace, as LSP diagnostics. */
import { Type } from "@sinclair/typebox";
import * as vscode from "vscode";
import type { CancellationToken } from "vscode-jsonrpc";
import type { HostToolContext } from "../../shared/rpc/host-tool-registry";
import { displayOf, hiddenFromAgents, openWorkspaceDocument, resolveFile } from "./editor-workspace";
import { reallyReadable } from "./readable-for-agent";
import { code2lsp } from "./lsp";
import { filterDiagnostics, severityNames, type SeverityName } from "./lsp-format";
import { defineTool, jsonResult, raceCancellation, type EditorTool } from "./tool";
import { lazySchema } from "../../shared/protocol/lazy-schema";

const DiagnosticsParams = lazySchema(() => Type.Object(
  {
    path: Type.Optional(Type.String({ description: "File to report on, relative to the workspace folder or absolute. Omit for every file of the workspace." })),
    severity: Type.Optional(
      Type.Union(severityNames.map((name) => Type.Literal(name)), {
        description: 'Least severe level to include: "error" gives only errors, "warning" errors and warnings, and so on. Default "hint" (everything).',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "Most diagnostics to return (default 200)." })),
  },
  { additionalProperties: false },
));

/** How long a file opened for its diagnostics gets for its language server's first report, and for the reports after it to settle. */
const firstReportMs = 5000;
const settleMs = 750;

/**
 * Resolves true once VS Code has reported diagnostics for `uri` and then been quiet for
 * `settleMs` (a server may report syntax errors first and semantic ones later), or false after
 * `maxMs` without any report.
 */
function reportsSettled(uri: vscode.Uri, maxMs: number, token: CancellationToken): Promise<boolean> {
  const key = uri.toString();
  let sub: vscode.Disposable | undefined;
  const timers: NodeJS.Timeout[] = [];
  const settled = new Promise<boolean>((resolve) => {
    let quiet: NodeJS.Timeout | undefined;
    timers.push(setTimeout(() => resolve(quiet !== undefined), maxMs));
    sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === key)) return;
      if (quiet) clearTimeout(quiet);
      quiet = setTimeout(() => resolve(true), settleMs);
      timers.push(quiet);
    });
  });
  return raceCancellation(settled, token).finally(() => {
    for (const timer of timers) clearTimeout(timer);
    sub?.dispose();
  });
}

/** The text document a tab shows (the modified side of a diff). */
const tabUri = ({ input }: vscode.Tab): vscode.Uri | undefined =>
  input instanceof vscode.TabInputText ? input.uri : input instanceof vscode.TabInputTextDiff ? input.modified : undefined;

const inTab = (uri: vscode.Uri): boolean =>
  vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tabUri(tab)?.toString() === uri.toString()));

interface Checked {
  diagnostics: vscode.Diagnostic[];
  note?: string;
}

/**
 * Many language servers (JSON, CSS, HTML: pull diagnostics) only check documents shown in a
 * tab: shows the file in a tab without taking the focus, waits for its reports, takes them and
 * closes the tab again (which clears them). Notes when nothing was reported in time.
 */
async function checkInTab(uri: vscode.Uri, path: string, context: HostToolContext): Promise<Checked> {
  const document = await raceCancellation(openWorkspaceDocument(uri, path), context.token);
  if (document.languageId === "plaintext") return { diagnostics: vscode.languages.getDiagnostics(uri) };
  context.update({ content: [{ type: "text", text: `Opened ${path} for its ${document.languageId} language server; waiting for its diagnostics…` }] });
  const reports = reportsSettled(uri, firstReportMs, context.token);
  const editor = await vscode.window.showTextDocument(document, { preview: false, preserveFocus: true });
  try {
    const reported = await reports;
    const diagnostics = vscode.languages.getDiagnostics(uri);
    if (reported) return { diagnostics };
    return { diagnostics, note: `No diagnostics were reported for ${path} within ${firstReportMs / 1000} s of opening it; its language server may still be starting, or none checks ${document.languageId} files.` };
  } finally {
    const tab = vscode.window.tabGroups.all.find((group) => group.viewColumn === editor.viewColumn)?.tabs.find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
    if (tab && !document.isDirty) await vscode.window.tabGroups.close(tab, true);
  }
}

export function createDiagnosticsTool(): EditorTool {
  return defineTool({
    name: "editor_diagnostics",
    label: "Editor diagnostics",
    description:
      "Problems (errors, warnings, information, hints) that VS Code's language servers and linters report for one file or for the whole workspace, including for unsaved changes. " +
      "Returns LSP Diagnostics grouped by file; positions are zero-based (line 0 is the first line). Use it after editing to check your change, or to find what to fix. " +
      "The workspace report covers the files language servers have checked (mostly open ones); a single file that is not open is opened briefly so that its language server checks it.",
    parameters: DiagnosticsParams,
    async run({ path, severity, limit }, context) {
      const minSeverity: SeverityName = severity ?? "hint";
      let note: string | undefined;
      let entries: [vscode.Uri, vscode.Diagnostic[]][];
      let scope: string;
      if (path !== undefined) {
        const file = resolveFile(path);
        scope = file.path;
        let diagnostics = vscode.languages.getDiagnostics(file.uri);
        if (!inTab(file.uri) && diagnostics.length === 0) ({ diagnostics, note } = await checkInTab(file.uri, file.path, context));
        entries = [[file.uri, diagnostics]];
      } else {
        scope = "workspace";
        entries = vscode.languages.getDiagnostics();
      }
      const files = entries.flatMap(([uri, diagnostics]) => {
        // A file the agents' sandbox hides, or one a link at its name leads out of the workspace from: a checker's message may quote its text.
        const shown = hiddenFromAgents(uri) || !reallyReadable(uri) ? undefined : displayOf(uri);
        return shown === undefined ? [] : [{ path: shown, uri: code2lsp().asUri(uri), diagnostics: code2lsp().asDiagnosticsSync(diagnostics) }];
      });
      const report = filterDiagnostics(files, minSeverity, limit ?? 200);
      return jsonResult(note === undefined ? { scope, minSeverity, ...report } : { scope, minSeverity, note, ...report });
    },
  });
}

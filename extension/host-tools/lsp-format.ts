/**
 * Plain LSP vocabulary the tools show the model (severity and symbol-kind names), and the
 * severity filter and ordering of diagnostics. No vscode import: unit-tested.
 */
import type { Diagnostic as LspDiagnostic } from "vscode-languageclient";

export const severityNames = ["error", "warning", "information", "hint"] as const;
export type SeverityName = (typeof severityNames)[number];

/** LSP DiagnosticSeverity (1 = Error ... 4 = Hint) of a name. */
export const severityNumber = (name: SeverityName): number => severityNames.indexOf(name) + 1;

export const severityName = (value: number | undefined): SeverityName => severityNames[(value ?? 1) - 1] ?? "error";

/** LSP SymbolKind (1-based) names, as in the specification. */
const symbolKindNames = [
  "File", "Module", "Namespace", "Package", "Class", "Method", "Property", "Field", "Constructor", "Enum",
  "Interface", "Function", "Variable", "Constant", "String", "Number", "Boolean", "Array", "Object", "Key",
  "Null", "EnumMember", "Struct", "Event", "Operator", "TypeParameter",
] as const;

export const symbolKindName = (kind: number): string => symbolKindNames[kind - 1] ?? `Kind${kind}`;

export interface FileDiagnostics {
  path: string;
  uri: string;
  diagnostics: (LspDiagnostic & { severityName: SeverityName })[];
}

export interface DiagnosticsReport {
  files: FileDiagnostics[];
  /** Diagnostics per severity name, after filtering, before the limit. */
  counts: Partial<Record<SeverityName, number>>;
  total: number;
  /** How many were left out by the limit. */
  omitted: number;
}

/**
 * Keeps the diagnostics at least as severe as `minSeverity` ("warning" keeps errors and
 * warnings), orders files by path and diagnostics by severity then position, and returns at
 * most `limit` of them; files without diagnostics are left out.
 */
export function filterDiagnostics(
  files: readonly { path: string; uri: string; diagnostics: readonly LspDiagnostic[] }[],
  minSeverity: SeverityName = "hint",
  limit = 200,
): DiagnosticsReport {
  const threshold = severityNumber(minSeverity);
  const counts: DiagnosticsReport["counts"] = {};
  let total = 0;
  let shownCount = 0;
  const out: FileDiagnostics[] = [];
  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    const kept = file.diagnostics
      .filter((d) => (d.severity ?? 1) <= threshold)
      .sort((a, b) => (a.severity ?? 1) - (b.severity ?? 1) || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    for (const d of kept) counts[severityName(d.severity)] = (counts[severityName(d.severity)] ?? 0) + 1;
    total += kept.length;
    const shown = kept.slice(0, Math.max(0, limit - shownCount));
    shownCount += shown.length;
    if (shown.length > 0) out.push({ path: file.path, uri: file.uri, diagnostics: shown.map((d) => ({ ...d, severityName: severityName(d.severity) })) });
  }
  return { files: out, counts, total, omitted: total - shownCount };
}

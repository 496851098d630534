import * as assert from "node:assert/strict";
import type { DiagnosticSeverity } from "vscode-languageclient";
import { filterDiagnostics, severityName, symbolKindName } from "./lsp-format";

const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 1 } });
const diagnostic = (line: number, message: string, severity: number) => ({ range: at(line), message, severity: severity as DiagnosticSeverity });

describe("editor tools: LSP formats", () => {
  const files = [
    { path: "b.ts", uri: "file:///b.ts", diagnostics: [diagnostic(3, "hint", 4), diagnostic(9, "late error", 1)] },
    { path: "a.json", uri: "file:///a.json", diagnostics: [diagnostic(1, "warn", 2), diagnostic(0, "error", 1)] },
    { path: "c.md", uri: "file:///c.md", diagnostics: [diagnostic(0, "info", 3)] },
  ];

  it("keeps diagnostics at least as severe as asked, ordered by file, severity and line", () => {
    const report = filterDiagnostics(files, "warning");
    assert.deepEqual(report.files.map((f) => [f.path, f.diagnostics.map((d) => d.message)]), [
      ["a.json", ["error", "warn"]],
      ["b.ts", ["late error"]],
    ]);
    assert.deepEqual(report.counts, { error: 2, warning: 1 });
    assert.equal(report.total, 3);
    assert.equal(report.omitted, 0);
    assert.equal(report.files[0]!.diagnostics[1]!.severityName, "warning");
  });

  it("keeps only errors for 'error' and everything by default, within the limit", () => {
    assert.equal(filterDiagnostics(files, "error").total, 2);
    const limited = filterDiagnostics(files, undefined, 3);
    assert.equal(limited.total, 5);
    assert.equal(limited.omitted, 2);
    assert.equal(limited.files.reduce((n, f) => n + f.diagnostics.length, 0), 3);
  });

  it("names severities and symbol kinds as the LSP specification does", () => {
    assert.equal(severityName(1), "error");
    assert.equal(severityName(undefined), "error");
    assert.equal(severityName(4), "hint");
    assert.equal(symbolKindName(12), "Function");
    assert.equal(symbolKindName(5), "Class");
    assert.equal(symbolKindName(99), "Kind99");
  });
});

// The editor host tools in the real VS Code: our bundled agent host offers them to a scripted
// model, the model calls them, and we check what it got back and what happened in the editor.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { toolNames, type JsonObject } from "../../support/mock-llm";
import { eventually } from "./agent-fixture";
import { callTool, json, revert, reviewTabs, useHostAgent, waitForReview, workspaceRoot, writeWorkspaceFile, type HostAgent } from "./host-tools-support";
import { requireUi, ui } from "./ui";

const editorTools = [
  "editor_read", "editor_edit", "editor_diagnostics", "editor_active", "editor_open_editors",
  "editor_symbols", "editor_definition", "editor_references", "editor_hover",
];
const acceptButton = `.editor-actions .action-label[aria-label^="Accept Pi's Edit"]`;
const rejectButton = `.editor-actions .action-label[aria-label^="Reject Pi's Edit"]`;

interface ReadMeta { path: string; source: string; version?: number; isDirty?: boolean; hash: string; languageId?: string }
const readMeta = (text: string): ReadMeta => JSON.parse(text.split("\n", 1)[0]!) as ReadMeta;

describe("host-tools: the editor's tools for the agent (bundled host, scripted model)", function () {
  this.timeout(120_000);
  let agent: HostAgent;
  let greet: vscode.TextDocument;
  let greetDisk: string;

  before(async () => {
    // VS Code for the web (code-server) saves dirty buffers after a second by default: these
    // tests tell the buffer from the disk, so auto save is off while they run.
    await vscode.workspace.getConfiguration("files").update("autoSave", "off", vscode.ConfigurationTarget.Global);
    agent = await useHostAgent();
    greet = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "src", "greet.ts"));
    greetDisk = fs.readFileSync(greet.uri.fsPath, "utf8");
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await agent?.dispose();
    await vscode.workspace.getConfiguration("files").update("autoSave", undefined, vscode.ConfigurationTarget.Global);
  });

  it("offers the editor tools to the model", async () => {
    assert.equal(agent.client.capabilities.hostTools, true, "the host took set_host_tools");
    agent.llm.enqueue({ text: "hi" });
    const settled = agent.client.waitForSettled();
    await agent.client.request("prompt", { message: "Which tools do you have?" });
    await settled;
    const offered = toolNames(agent.llm.requests.at(-1)!);
    for (const name of editorTools) assert.ok(offered.includes(name), `${name} is in the model's tool list (${offered.join(", ")})`);
    const edit = agent.llm.requests.at(-1)!.body.tools!.find((tool) => tool.function.name === "editor_edit")!;
    assert.match(edit.function.description ?? "", /expectedVersion/);
    assert.deepEqual((edit.function.parameters as { required: string[] }).required, ["path", "edits"]);
  });

  it("reports diagnostics filtered by severity, for a file and for the workspace", async () => {
    const collection = vscode.languages.createDiagnosticCollection("pi-test");
    try {
      const math = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "src", "math.js");
      const error = new vscode.Diagnostic(new vscode.Range(1, 2, 1, 8), "add returns a string here", vscode.DiagnosticSeverity.Error);
      error.source = "pi-test";
      const warning = new vscode.Diagnostic(new vscode.Range(0, 9, 0, 12), "prefer const arrow functions", vscode.DiagnosticSeverity.Warning);
      collection.set(math, [warning, error]);

      const file = json<{ files: { path: string; diagnostics: { message: string; severity: number; range: unknown; source?: string }[] }[] }>(
        await callTool(agent, "editor_diagnostics", { path: "src/math.js" }),
      );
      assert.equal(file.files.length, 1);
      assert.equal(file.files[0]!.path, "src/math.js");
      assert.deepEqual(file.files[0]!.diagnostics.map((d) => [d.severity, d.message]), [[1, "add returns a string here"], [2, "prefer const arrow functions"]]);
      assert.deepEqual(file.files[0]!.diagnostics[0]!.range, { start: { line: 1, character: 2 }, end: { line: 1, character: 8 } });
      assert.equal(file.files[0]!.diagnostics[0]!.source, "pi-test");

      const errors = json<{ files: { path: string; diagnostics: { message: string }[] }[] }>(await callTool(agent, "editor_diagnostics", { severity: "error" }));
      const messages = errors.files.flatMap((f) => f.diagnostics.map((d) => `${f.path}: ${d.message}`));
      assert.ok(messages.includes("src/math.js: add returns a string here"), messages.join("\n"));
      assert.ok(!messages.some((m) => m.includes("prefer const")), "warnings are filtered out");
    } finally {
      collection.dispose();
    }
  });

  it("reports a JSON syntax error of a file that was not open, opening it briefly for the JSON language server", async () => {
    const broken = writeWorkspaceFile("config/broken.json", '{\n  "name": "x",,\n  "ok": true\n}\n');
    const run = await callTool(agent, "editor_diagnostics", { path: "config/broken.json", severity: "error" });
    const report = json<{ files: { path: string; diagnostics: { message: string; range: { start: { line: number } } }[] }[] }>(run);
    const diagnostics = report.files[0]?.diagnostics ?? [];
    assert.ok(diagnostics.length > 0, `the JSON server reported the syntax error: ${run.text}`);
    assert.equal(diagnostics[0]!.range.start.line, 1);
    assert.ok(run.updates.some((text) => /Opened config\/broken\.json for its json language server; waiting for its diagnostics/.test(text)), run.updates.join(" | "));
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs);
    assert.ok(!tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === broken.toString()), "the file's tab was closed again");
  });

  it("reads an unsaved buffer with its version, a closed file from disk, and refuses paths outside the workspace", async () => {
    const editor = await vscode.window.showTextDocument(greet);
    await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), "// unsaved note\n"));
    try {
      const run = await callTool(agent, "editor_read", { path: "src/greet.ts" });
      const meta = readMeta(run.text);
      assert.equal(meta.source, "editor");
      assert.equal(meta.version, greet.version);
      assert.equal(meta.isDirty, true);
      assert.equal(meta.languageId, "typescript");
      assert.equal(run.text.slice(run.text.indexOf("\n") + 1), greet.getText().replace(/\n$/, ""));
      assert.ok(!fs.readFileSync(greet.uri.fsPath, "utf8").includes("unsaved note"), "the disk does not have it");
    } finally {
      await revert(greet);
    }
    writeWorkspaceFile("notes/closed.txt", "written on disk\nnot open anywhere\n");
    const disk = await callTool(agent, "editor_read", { path: "notes/closed.txt", offset: 2 });
    const diskMeta = readMeta(disk.text);
    assert.equal(diskMeta.source, "disk");
    assert.equal(diskMeta.version, undefined);
    assert.equal(disk.text.slice(disk.text.indexOf("\n") + 1), "not open anywhere");
    const outside = await callTool(agent, "editor_read", { path: "../outside.txt" });
    assert.equal(outside.isError, true);
    assert.match(outside.text, /outside the workspace/);
  });

  it("home opened as the workspace: a secret the agents' sandbox hides is not read, edited, previewed, shown as the user's selection or in the workspace's diagnostics", async () => {
    // The extension host's HOME is where the agents' home is: here, the workspace (home opened as it).
    const home = process.env.HOME;
    const secret = writeWorkspaceFile(".aws/credentials", "[default]\naws_secret_access_key = HIDDEN-AWS-KEY\n").fsPath;
    process.env.HOME = workspaceRoot();
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(secret));
    try {
      for (const [name, args] of [["editor_read", { path: ".aws/credentials" }], ["editor_symbols", { path: ".aws/credentials" }], ["editor_edit", { path: ".aws/credentials", edits: [{ oldText: "default", newText: "x" }] }]] as [string, JsonObject][]) {
        const run = await callTool(agent, name, args);
        assert.ok(run.isError && !run.text.includes("HIDDEN-AWS-KEY"), `${name}: ${run.text}`);
        assert.match(run.text, /which the sandbox hides/);
      }
      // The user opened it and selected the key: the agent asking what is selected does not get it.
      const editor = await vscode.window.showTextDocument(document, { preview: false });
      editor.selection = new vscode.Selection(1, 0, 1, 40);
      const active = await callTool(agent, "editor_active", {});
      assert.ok(!active.text.includes("HIDDEN-AWS-KEY"), active.text);
      assert.match(active.text, /not shown/);
      // A checker reported on it, quoting its text: the workspace's report leaves the file out.
      const checker = vscode.languages.createDiagnosticCollection("pi-test-checker");
      try {
        checker.set(document.uri, [new vscode.Diagnostic(new vscode.Range(1, 0, 1, 40), "unexpected 'aws_secret_access_key = HIDDEN-AWS-KEY'")]);
        const report = await callTool(agent, "editor_diagnostics", {});
        assert.ok(!report.isError && !report.text.includes("HIDDEN-AWS-KEY") && !report.text.includes(".aws/credentials"), report.text);
      } finally {
        checker.dispose();
      }
      assert.equal(fs.readFileSync(secret, "utf8"), "[default]\naws_secret_access_key = HIDDEN-AWS-KEY\n");
    } finally {
      process.env.HOME = home;
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
      fs.rmSync(path.dirname(secret), { recursive: true, force: true });
    }
  });

  it("refuses a symlink in the workspace that leads outside it, for reading and editing", async () => {
    const outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-outside-"));
    const secret = path.join(outsideDir, "secret.txt");
    fs.writeFileSync(secret, "outside secret\n");
    const links = [path.join(workspaceRoot(), "link-out"), path.join(workspaceRoot(), "secret-link.txt")];
    fs.symlinkSync(outsideDir, links[0]!);
    fs.symlinkSync(secret, links[1]!);
    try {
      const calls: [string, JsonObject][] = [
        ["editor_read", { path: "link-out/secret.txt" }],
        ["editor_read", { path: "secret-link.txt" }],
        ["editor_symbols", { path: "link-out/secret.txt" }],
        ["editor_edit", { path: "secret-link.txt", edits: [{ oldText: "outside", newText: "edited" }] }],
      ];
      for (const [name, args] of calls) {
        const run = await callTool(agent, name, args);
        assert.ok(!run.text.includes("outside secret"), `${name} read outside: ${run.text}`);
        assert.equal(run.isError, true, run.text);
        assert.match(run.text, /outside the workspace/);
      }
      assert.equal(reviewTabs().length, 0, "no review was opened");
      assert.equal(fs.readFileSync(secret, "utf8"), "outside secret\n");
    } finally {
      for (const link of links) fs.rmSync(link, { force: true });
      fs.rmSync(outsideDir, { recursive: true, force: true });
    }
  });

  it("does not show the selection of a document VS Code loaded through a link put at its name", async () => {
    const outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-outside-"));
    const secret = path.join(outsideDir, "secret.txt");
    fs.writeFileSync(secret, "outside secret\n");
    // As a command (the sandbox lets it write the workspace) or a repository may leave it. (An open
    // document whose file a command replaces by a link is closed by the save guard: sandbox suite.)
    const linked = path.join(workspaceRoot(), "src", "linked-selection.txt");
    fs.symlinkSync(secret, linked);
    try {
      const document = await vscode.workspace.openTextDocument(linked);
      const editor = await vscode.window.showTextDocument(document, { preview: false });
      assert.ok(document.getText().includes("outside secret"), "the editor shows the linked file");
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      const run = await callTool(agent, "editor_active", {});
      const active = json<{ path: string; selections: { text?: string }[] }>(run);
      assert.equal(active.path, "src/linked-selection.txt");
      assert.ok(!run.text.includes("outside secret"), run.text);
      assert.match(active.selections[0]?.text ?? "", /not shown/);
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
      fs.rmSync(linked, { force: true });
      fs.rmSync(outsideDir, { recursive: true, force: true });
    }
  });

  it("refuses an edit made for an older version or another hash, and leaves the buffer alone", async () => {
    const before = greet.getText();
    const stale = await callTool(agent, "editor_edit", { path: "src/greet.ts", edits: [{ oldText: "Hello", newText: "Hi" }], expectedVersion: greet.version - 1 });
    assert.equal(stale.isError, true);
    assert.match(stale.text, new RegExp(`Stale edit refused: src/greet\\.ts is at version ${greet.version} in the editor, but the edit was made for version ${greet.version - 1}`));
    const wrongHash = await callTool(agent, "editor_edit", { path: "src/greet.ts", edits: [{ oldText: "Hello", newText: "Hi" }], expectedHash: "sha256:0000000000000000" });
    assert.equal(wrongHash.isError, true);
    assert.match(wrongHash.text, /Stale edit refused: the content of src\/greet\.ts changed/);
    assert.equal(greet.getText(), before);
    assert.equal(reviewTabs().length, 0, "no review was opened");
  });

  describe("review in a diff", function () {
    before(function () {
      requireUi(this);
    });
    afterEach(async () => {
      if (greet.isDirty) await revert(greet);
    });

    const proposeEdit = (whileRunning: () => Promise<void>) =>
      callTool(agent, "editor_edit", { path: "src/greet.ts", edits: [{ oldText: "Hello, ${name}!", newText: "Welcome, ${name}!" }], expectedVersion: greet.version }, whileRunning);

    it("applies the edit to the buffer, not the disk, when the user accepts it", async () => {
      const run = await proposeEdit(async () => {
        await waitForReview();
        await ui.waitForSelector(acceptButton);
        await ui.screenshot("host-tools-edit-review");
        await ui.click(acceptButton);
      });
      const result = json<{ status: string; version: number; path: string }>(run);
      assert.equal(result.status, "accepted", run.text);
      assert.equal(result.version, greet.version);
      assert.match(greet.getText(), /Welcome, \$\{name\}!/);
      assert.ok(greet.isDirty, "the buffer has the change unsaved");
      assert.equal(fs.readFileSync(greet.uri.fsPath, "utf8"), greetDisk, "the disk is unchanged");
      assert.ok(run.updates.some((text) => /Waiting for the user to review/.test(text)), `progress was reported: ${run.updates.join(" | ")}`);
      await eventually("the review to close", () => reviewTabs().length === 0);
    });

    it("leaves the buffer unchanged when the user rejects it", async () => {
      const before = greet.getText();
      const run = await proposeEdit(async () => {
        await waitForReview();
        await ui.click(rejectButton);
      });
      assert.equal(run.isError, true);
      assert.equal(json<{ status: string }>(run).status, "rejected");
      assert.match(run.text, /The user rejected the edit: src\/greet\.ts is unchanged/);
      assert.equal(greet.getText(), before);
      await eventually("the review to close", () => reviewTabs().length === 0);
    });

    it("takes closing the diff as a rejection", async () => {
      const before = greet.getText();
      const run = await proposeEdit(async () => {
        await waitForReview();
        await ui.click(".tabs-container .tab.active .tab-actions .action-label");
      });
      assert.equal(json<{ status: string }>(run).status, "rejected", run.text);
      assert.equal(greet.getText(), before);
    });

    it("closes the review and cancels the edit when the run is aborted", async () => {
      const before = greet.getText();
      const run = await proposeEdit(async () => {
        await waitForReview();
        await vscode.commands.executeCommand("pi.abort");
      });
      assert.equal(run.isError, true);
      assert.match(run.reported, /aborted|cancelled/i);
      await eventually("the review to close", () => reviewTabs().length === 0);
      assert.equal(greet.getText(), before);
    });
  });

  it("applies LSP TextEdits guarded by a hash at once when reviews are off", async () => {
    const config = vscode.workspace.getConfiguration("pi");
    await config.update("hostTools.reviewEdits", false, vscode.ConfigurationTarget.Global);
    try {
      const read = readMeta((await callTool(agent, "editor_read", { path: "src/greet.ts" })).text);
      const edits = [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: "// added by Pi\n" }];
      const run = await callTool(agent, "editor_edit", { path: "src/greet.ts", edits, expectedHash: read.hash });
      assert.equal(json<{ status: string }>(run).status, "applied", run.text);
      assert.ok(greet.getText().startsWith("// added by Pi\nexport function greet"));
      assert.equal(fs.readFileSync(greet.uri.fsPath, "utf8"), greetDisk);
      assert.equal(reviewTabs().length, 0);
    } finally {
      await config.update("hostTools.reviewEdits", undefined, vscode.ConfigurationTarget.Global);
      if (greet.isDirty) await revert(greet);
    }
  });

  it("describes the active editor with its selection and visible ranges, and the open tabs", async () => {
    const editor = await vscode.window.showTextDocument(greet, { preview: false });
    editor.selection = new vscode.Selection(0, 16, 0, 21);
    const active = json<{ path: string; languageId: string; version: number; selections: { text?: string; range: unknown }[]; visibleRanges: unknown[] }>(
      await callTool(agent, "editor_active", {}),
    );
    assert.equal(active.path, "src/greet.ts");
    assert.equal(active.languageId, "typescript");
    assert.equal(active.version, greet.version);
    assert.equal(active.selections[0]!.text, "greet");
    assert.deepEqual(active.selections[0]!.range, { start: { line: 0, character: 16 }, end: { line: 0, character: 21 } });
    assert.ok(active.visibleRanges.length > 0);

    const tabs = json<{ groups: { tabs: { path?: string; kind: string; isActive: boolean }[] }[] }>(await callTool(agent, "editor_open_editors", {}));
    const greetTab = tabs.groups.flatMap((group) => group.tabs).find((tab) => tab.path === "src/greet.ts");
    assert.ok(greetTab, JSON.stringify(tabs));
    assert.equal(greetTab.kind, "text");
    assert.equal(greetTab.isActive, true);
  });

  it("answers symbols, definition, references and hover from the TypeScript language server", async () => {
    writeWorkspaceFile("src/welcome.ts", 'import { greet } from "./greet";\n\nexport function welcome(): string {\n  return greet("world");\n}\n');
    type Symbols = { symbols: { name: string; kindName: string; selectionRange: { start: { line: number } } }[] };
    const outline = json<Symbols>(await callTool(agent, "editor_symbols", { path: "src/welcome.ts" }));
    const welcome = outline.symbols.find((symbol) => symbol.name === "welcome");
    assert.ok(welcome, JSON.stringify(outline));
    assert.equal(welcome.kindName, "Function");
    assert.equal(welcome.selectionRange.start.line, 2);

    type Locations = { path: string; range: { start: { line: number; character: number } }; text?: string }[];
    const definition = json<{ definitions: Locations }>(await callTool(agent, "editor_definition", { path: "src/welcome.ts", line: 3, character: 10 }));
    assert.equal(definition.definitions[0]?.path, "src/greet.ts", JSON.stringify(definition));
    assert.equal(definition.definitions[0]!.range.start.line, 0);
    assert.match(definition.definitions[0]!.text ?? "", /export function greet/);

    const references = json<{ references: Locations }>(await callTool(agent, "editor_references", { path: "src/greet.ts", line: 0, character: 17 }));
    const where = references.references.map((r) => `${r.path}:${r.range.start.line}`);
    for (const expected of ["src/greet.ts:0", "src/welcome.ts:0", "src/welcome.ts:3"]) assert.ok(where.includes(expected), where.join(", "));

    const hover = json<{ hovers: { contents: { kind: string; value: string } }[] }>(await callTool(agent, "editor_hover", { path: "src/welcome.ts", line: 3, character: 10 }));
    assert.match(hover.hovers.map((h) => h.contents.value).join("\n"), /greet\(name: string\): string/);

    const found = json<{ symbols: { name: string; location: { path: string } }[] }>(await callTool(agent, "editor_symbols", { query: "welcome" }));
    assert.ok(found.symbols.some((s) => s.name.startsWith("welcome") && s.location.path === "src/welcome.ts"), JSON.stringify(found));
  });
});
